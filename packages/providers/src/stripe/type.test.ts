import { findCurrency } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { providerType } from '../registry.js';
import { STRIPE } from './type.js';

const TEST_KEY = 'sk_test_51AbcDEF0123456789';
const LIVE_KEY = 'sk_live_51AbcDEF0123456789';

describe('the stripe provider type', () => {
  it('is registered under its name in any case', () => {
    expect(providerType('Stripe')).toBe(STRIPE);
    expect(STRIPE.endpoint('SANDBOX', {})).toBe('https://api.stripe.com');
    expect(STRIPE.endpoint('PRODUCTION', {})).toBe('https://api.stripe.com');
    expect(STRIPE.operations.has('bankAccountDebit')).toBe(false);
    expect(STRIPE.operations.has('partialCapture')).toBe(true);
    // 3-D Secure through Stripe's redirect; Stripe takes no authentication run elsewhere.
    expect(STRIPE.operations.has('threeDsRedirect')).toBe(true);
    expect(STRIPE.operations.has('externalThreeDs')).toBe(false);
  });

  it('takes its parameters in any case, answering their canonical names', () => {
    expect(STRIPE.checkParameters({ secretkey: TEST_KEY, WEBHOOKSECRET: 'whsec_0123456789abcdefABCD' }, 'SANDBOX')).toEqual({
      ok: true,
      parameters: { SecretKey: TEST_KEY, WebhookSecret: 'whsec_0123456789abcdefABCD' },
    });
    expect(STRIPE.checkParameters({ SecretKey: LIVE_KEY }, 'PRODUCTION')).toEqual({ ok: true, parameters: { SecretKey: LIVE_KEY } });
    expect(STRIPE.checkParameters({ SecretKey: 'rk_test_51AbcDEF0123456789' }, 'SANDBOX').ok).toBe(true);
  });

  it.each([
    [{}, 'SANDBOX', 'SecretKey', /required/],
    [{ SecretKey: LIVE_KEY }, 'SANDBOX', 'SecretKey', /SANDBOX provider needs a test key/],
    [{ SecretKey: TEST_KEY }, 'PRODUCTION', 'SecretKey', /PRODUCTION provider needs a live key/],
    [{ SecretKey: 'pk_test_51AbcDEF0123456789' }, 'SANDBOX', 'SecretKey', /Not a Stripe secret key/],
    [{ SecretKey: TEST_KEY, WebhookSecret: 'secret' }, 'SANDBOX', 'WebhookSecret', /whsec_/],
    [{ SecretKey: TEST_KEY, ApiKey: 'x' }, 'SANDBOX', 'ApiKey', /Not a parameter/],
  ] as const)('refuses %j for %s, naming %s', (given, environment, name, message) => {
    const check = STRIPE.checkParameters(given, environment);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems[name]).toMatch(message);
      expect(JSON.stringify(check.problems)).not.toContain('51AbcDEF');
    }
  });
});

describe('Stripe’s currencies and units', () => {
  it('lists ISO 4217 currencies only', () => {
    expect(STRIPE.currencies.filter((code) => !findCurrency(code))).toEqual([]);
    expect(STRIPE.currencies).toEqual(expect.arrayContaining(['USD', 'JPY', 'KWD', 'ISK', 'EUR']));
  });

  it.each([
    ['USD', 1250n, 1250n],
    ['JPY', 1500n, 1500n],
    ['KRW', 1n, 1n],
    ['MGA', 50_000n, 500n],
    ['MGA', 50_050n, undefined],
    ['ISK', 123n, 12_300n],
    ['KWD', 12_340n, 12_340n],
    ['KWD', 12_345n, undefined],
    ['BHD', 10n, 10n],
    ['HUF', 1_050n, 1_050n],
    ['TWD', 99n, 99n],
    ['UGX', 5_000n, 5_000n],
    ['IQD', 1_000n, undefined],
    ['XXX', 1n, undefined],
    ['USD', 2n ** 60n, undefined],
  ] as const)('%s %s is %s at Stripe', (currency, iso, stripe) => {
    expect(STRIPE.providerAmount(currency, iso)).toBe(stripe);
  });
});
