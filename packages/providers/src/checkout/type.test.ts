import { describe, expect, it } from 'vitest';
import { providerType } from '../registry.js';
import { CHECKOUT } from './type.js';

const good = { SecretKey: 'sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e', ProcessingChannelId: 'pc_q4dbxom5jbgudnjzjpz7j2z6uq' };
const live = { ...good, SecretKey: 'sk_m73dzbpy7cf3gfd46xr4yj5xo4e' };

describe('the checkout provider type', () => {
  it('is registered under its name, in any case', () => {
    expect(providerType('Checkout')).toBe(CHECKOUT);
  });

  it('takes its parameters case-insensitively, WebhookSecret optional', () => {
    expect(CHECKOUT.checkParameters({ secretkey: good.SecretKey, PROCESSINGCHANNELID: good.ProcessingChannelId }, 'SANDBOX')).toEqual({
      ok: true,
      parameters: good,
    });
    expect(CHECKOUT.checkParameters({ ...good, WebhookSecret: 'a-webhook-secret-key-0001' }, 'SANDBOX').ok).toBe(true);
  });

  it('names each one missing', () => {
    expect(CHECKOUT.checkParameters({}, 'SANDBOX')).toEqual({
      ok: false,
      problems: { SecretKey: 'SecretKey is required', ProcessingChannelId: 'ProcessingChannelId is required' },
    });
  });

  it('takes a sandbox key only in SANDBOX and a live key only in PRODUCTION', () => {
    expect(CHECKOUT.checkParameters(good, 'PRODUCTION')).toMatchObject({
      ok: false,
      problems: { SecretKey: expect.stringContaining('live') },
    });
    expect(CHECKOUT.checkParameters(live, 'SANDBOX')).toMatchObject({
      ok: false,
      problems: { SecretKey: expect.stringContaining('sk_sbox_') },
    });
    expect(CHECKOUT.checkParameters(live, 'PRODUCTION').ok).toBe(true);
  });

  it.each([
    ['SecretKey', 'sk_test_3e1ad21b-ac23-4eb3-ad1f-375e9fb56481'],
    ['SecretKey', 'pk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e'],
    ['SecretKey', 'sk_sbox_short'],
    ['SecretKey', 'sk_sbox_has a space in it at all'],
    ['ProcessingChannelId', 'ch_q4dbxom5jbgudnjzjpz7j2z6uq'],
    ['ProcessingChannelId', 'pc_'],
    ['WebhookSecret', 'short'],
  ])('refuses a malformed %s (%s)', (name, value) => {
    expect(CHECKOUT.checkParameters({ ...good, [name]: value }, 'SANDBOX')).toMatchObject({
      ok: false,
      problems: { [name]: expect.any(String) },
    });
  });

  it('talks to the sandbox or the live host over HTTPS', () => {
    expect(CHECKOUT.endpoint('SANDBOX', good)).toBe('https://api.sandbox.checkout.com');
    expect(CHECKOUT.endpoint('PRODUCTION', live)).toBe('https://api.checkout.com');
  });

  it('counts amounts in its own minor units: JPY none, KWD three, EUR two; no unknown currency', () => {
    expect(CHECKOUT.providerAmount('JPY', 500n)).toBe(500n);
    expect(CHECKOUT.providerAmount('KWD', 1500n)).toBe(1500n);
    expect(CHECKOUT.providerAmount('EUR', 1099n)).toBe(1099n);
    expect(CHECKOUT.providerAmount('XXX', 100n)).toBeUndefined();
  });
});
