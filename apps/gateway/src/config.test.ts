import { DEFAULT_LIMITS } from '@gateway/api';
import { convertMinorUnits, findCurrency, type Currency } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

const currency = (code: string) => findCurrency(code) as Currency;

describe('GATEWAY_EXCHANGE_RATES', () => {
  it('is read into exact rates the services convert fixed fees with; none by default', () => {
    const { exchangeRates } = readConfig({ GATEWAY_EXCHANGE_RATES: 'USD:AUD=1.5234,EUR:AUD=1.6612' });
    expect(convertMinorUnits(10n, currency('AUD'), currency('USD'), exchangeRates)).toBe(7n);
    expect(convertMinorUnits(100n, currency('EUR'), currency('AUD'), exchangeRates)).toBe(166n);
    expect(readConfig({}).exchangeRates.size).toBe(0);
  });

  it('stops the start with a message naming the setting and the entry', () => {
    expect(() => readConfig({ GATEWAY_EXCHANGE_RATES: 'USD:AUD=1.5,EUR-AUD' })).toThrow(
      /^GATEWAY_EXCHANGE_RATES: "EUR-AUD" is not FROM:TO=RATE/,
    );
  });
});

describe('GATEWAY_PROVIDER_ENDPOINTS', () => {
  it('is read per provider type, in any case, each URL without its trailing slash; none by default', () => {
    expect(
      readConfig({ GATEWAY_PROVIDER_ENDPOINTS: 'stripe=http://127.0.0.1:12111/, ADYEN=https://proxy.internal:8443/checkout/v71' })
        .providerEndpoints,
    ).toEqual({
      stripe: 'http://127.0.0.1:12111',
      adyen: 'https://proxy.internal:8443/checkout/v71',
    });
    expect(readConfig({}).providerEndpoints).toEqual({});
  });

  it('stops the start with a message naming the entry', () => {
    const refused: Array<[string, RegExp]> = [
      ['stripe', /"stripe" is not type=url/],
      ['paypal=http://127.0.0.1:1', /names no provider type \(one of stripe, adyen, checkout, nab_transact\)/],
      ['dummy=http://127.0.0.1:1', /names no provider type/],
      ['stripe=http://a:1,stripe=http://b:2', /names stripe a second time/],
      ['stripe=127.0.0.1:12111', /must be an http or https URL|has no valid URL/],
      ['stripe=ftp://127.0.0.1', /must be an http or https URL/],
      ['adyen=https://user:pw@proxy.internal', /no user, password, query or fragment/],
      ['adyen=https://proxy.internal/?x=1', /no user, password, query or fragment/],
      ['stripe=http://127.0.0.1:12111/v1', /must be an origin .*stripe takes no path/],
    ];
    for (const [value, message] of refused) {
      expect(() => readConfig({ GATEWAY_PROVIDER_ENDPOINTS: value }), value).toThrow(message);
    }
  });
});

const POSTGRES = { DATABASE_URL: 'postgresql://gateway@db:5432/gateway' };

describe('processes, pool budget and shutdown in the configuration', () => {
  it('defaults to one process with the whole pool and a 25-second shutdown', () => {
    expect(readConfig({})).toMatchObject({ workers: 1, databasePoolSize: 9, shutdownTimeoutSeconds: 25 });
  });

  it('divides GATEWAY_DB_POOL_SIZE among the workers, rounding down, each keeping one for its listener', () => {
    expect(readConfig({ ...POSTGRES, GATEWAY_WORKERS: '3' })).toMatchObject({ workers: 3, databasePoolSize: 2 });
    expect(readConfig({ ...POSTGRES, GATEWAY_WORKERS: '2', GATEWAY_DB_POOL_SIZE: '40' })).toMatchObject({ databasePoolSize: 19 });
    expect(() => readConfig({ ...POSTGRES, GATEWAY_WORKERS: '4', GATEWAY_DB_POOL_SIZE: '8' })).toThrow(
      'GATEWAY_DB_POOL_SIZE=8 leaves 2 connection(s) to each of the 4 processes of GATEWAY_WORKERS; each needs at least 3: raise GATEWAY_DB_POOL_SIZE to 12 or more.',
    );
  });

  it('refuses several processes on the embedded database, and counts that are not counts', () => {
    expect(() => readConfig({ GATEWAY_WORKERS: '2' })).toThrow(/^GATEWAY_WORKERS=2 needs PostgreSQL \(DATABASE_URL\)/);
    expect(() => readConfig({ ...POSTGRES, GATEWAY_WORKERS: '0' })).toThrow('GATEWAY_WORKERS must be an integer of at least 1, got "0"');
    expect(() => readConfig({ GATEWAY_SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      /GATEWAY_SHUTDOWN_TIMEOUT_SECONDS must be an integer of at least 1/,
    );
    expect(() => readConfig({ GATEWAY_DB_POOL_SIZE: '1' })).toThrow(/GATEWAY_DB_POOL_SIZE must be an integer of at least 3/);
  });
});

describe('abuse limits and trusted proxies', () => {
  it('default to the documented limits and loopback; GATEWAY_RATE_LIMITS changes the limits it names', () => {
    expect(readConfig({})).toMatchObject({ limits: DEFAULT_LIMITS, trustedProxies: 'loopback' });
    const { limits, trustedProxies } = readConfig({
      GATEWAY_RATE_LIMITS: 'public-address-declines=20/600, sign-in-pair-failures=3/60',
      GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8,loopback',
    });
    expect(limits).toEqual({
      ...DEFAULT_LIMITS,
      'public-address-declines': { points: 20, seconds: 600 },
      'sign-in-pair-failures': { points: 3, seconds: 60 },
    });
    expect(trustedProxies).toBe('10.0.0.0/8,loopback');
  });

  it('stops the start on a limit it does not know or cannot read', () => {
    expect(() => readConfig({ GATEWAY_RATE_LIMITS: 'everything=1/1' })).toThrow(
      /^GATEWAY_RATE_LIMITS: "everything=1\/1" is not name=points\/seconds/,
    );
    expect(() => readConfig({ GATEWAY_RATE_LIMITS: 'public-key-calls=0/60' })).toThrow(/GATEWAY_RATE_LIMITS: "public-key-calls=0\/60"/);
  });
});

describe('webhook deliveries and retention in the configuration', () => {
  it('has documented defaults, and reads each setting', () => {
    expect(readConfig({}).background).toEqual({
      webhookTimeoutMs: 10_000,
      webhookConcurrency: 16,
      webhookSubscriptionsPerAccount: 100,
      retention: { idempotencyKeysMs: 24 * 3_600_000, webhookEventsMs: 30 * 86_400_000 },
    });
    const set = readConfig({
      GATEWAY_WEBHOOK_TIMEOUT_SECONDS: '3',
      GATEWAY_WEBHOOK_CONCURRENCY: '4',
      GATEWAY_WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT: '50',
      GATEWAY_IDEMPOTENCY_RETENTION_HOURS: '48',
      GATEWAY_WEBHOOK_RETENTION_DAYS: '7',
    });
    expect(set.background).toEqual({
      webhookTimeoutMs: 3_000,
      webhookConcurrency: 4,
      webhookSubscriptionsPerAccount: 50,
      retention: { idempotencyKeysMs: 48 * 3_600_000, webhookEventsMs: 7 * 86_400_000 },
    });
  });

  it('refuses values out of range, naming the setting', () => {
    expect(() => readConfig({ GATEWAY_WEBHOOK_TIMEOUT_SECONDS: '61' })).toThrow(/GATEWAY_WEBHOOK_TIMEOUT_SECONDS/);
    expect(() => readConfig({ GATEWAY_WEBHOOK_CONCURRENCY: '0' })).toThrow(/GATEWAY_WEBHOOK_CONCURRENCY/);
    expect(() => readConfig({ GATEWAY_WEBHOOK_RETENTION_DAYS: 'x' })).toThrow(/GATEWAY_WEBHOOK_RETENTION_DAYS/);
  });
});
