import { describe, expect, it } from 'vitest';
import { providerType } from '../registry.js';
import { ADYEN } from './type.js';

const good = {
  ApiKey: 'AQE1hmfxKo3NaxZDw0m-test',
  MerchantAccount: 'GatewayTestECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

describe('the adyen provider type', () => {
  it('is registered under its name, in any case', () => {
    expect(providerType('Adyen')).toBe(ADYEN);
  });

  describe('parameters', () => {
    it('are matched case-insensitively and answered by their canonical names', () => {
      expect(
        ADYEN.checkParameters({ apikey: good.ApiKey, MERCHANTACCOUNT: good.MerchantAccount, hmackey: good.HmacKey }, 'SANDBOX'),
      ).toEqual({
        ok: true,
        parameters: good,
      });
    });

    it('name each one missing', () => {
      expect(ADYEN.checkParameters({}, 'SANDBOX')).toEqual({
        ok: false,
        problems: { ApiKey: 'ApiKey is required', MerchantAccount: 'MerchantAccount is required', HmacKey: 'HmacKey is required' },
      });
    });

    it('need the live URL prefix for PRODUCTION only', () => {
      expect(ADYEN.checkParameters(good, 'PRODUCTION')).toEqual({
        ok: false,
        problems: { LiveUrlPrefix: 'LiveUrlPrefix is required for PRODUCTION' },
      });
      expect(ADYEN.checkParameters({ ...good, LiveUrlPrefix: '1797a841fbb37ca7-AdyenDemo' }, 'PRODUCTION').ok).toBe(true);
    });

    it.each([
      ['HmacKey', 'not-hex-at-all'],
      ['HmacKey', 'ABC'],
      ['ApiKey', 'short'],
      ['ApiKey', 'has a space in it'],
      ['MerchantAccount', 'Bad/Account'],
      ['LiveUrlPrefix', 'evil.example.com/x'],
      ['LiveUrlPrefix', 'prefix@evil'],
    ])('refuse a malformed %s (%s)', (name, value) => {
      const check = ADYEN.checkParameters({ ...good, LiveUrlPrefix: '1797a841fbb37ca7-AdyenDemo', [name]: value }, 'PRODUCTION');
      expect(check.ok).toBe(false);
      expect(Object.keys(check.ok ? {} : check.problems)).toEqual([name]);
    });

    it('refuse a name the type does not have', () => {
      expect(ADYEN.checkParameters({ ...good, SecretKey: 'sk_test_1' }, 'SANDBOX')).toMatchObject({
        ok: false,
        problems: { SecretKey: expect.stringContaining('ApiKey') },
      });
    });

    it('keep keys secret', () => {
      expect(ADYEN.parameters.filter((p) => p.secret).map((p) => p.name)).toEqual(['ApiKey', 'HmacKey']);
    });
  });

  it('calls Checkout v71 on Adyen’s test endpoint, or the account’s live one', () => {
    expect(ADYEN.endpoint('SANDBOX', good)).toBe('https://checkout-test.adyen.com/v71');
    expect(ADYEN.endpoint('PRODUCTION', { ...good, LiveUrlPrefix: '1797a841fbb37ca7-AdyenDemo' })).toBe(
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v71',
    );
  });

  describe('amounts', () => {
    it.each([
      ['EUR', 1050n, 1050n],
      ['JPY', 1050n, 1050n],
      ['BHD', 1234n, 1234n],
      ['IDR', 1000n, 10n],
      ['CVE', 500n, 5n],
      ['CLP', 1050n, 105000n],
      ['ISK', 7n, 700n],
    ])('count %s %s (ISO minor units) as %s Adyen minor units', (currency, iso, adyen) => {
      expect(ADYEN.providerAmount(currency, iso)).toBe(adyen);
    });

    it.each([
      ['IDR', 1050n],
      ['CVE', 1n],
      ['BIF', 100n],
      ['XXX', 100n],
    ])('refuse %s %s, which Adyen cannot express', (currency, iso) => {
      expect(ADYEN.providerAmount(currency, iso)).toBeUndefined();
    });

    it('take Adyen’s currencies', () => {
      expect(ADYEN.currencies).toEqual(expect.arrayContaining(['EUR', 'USD', 'JPY', 'BHD', 'IDR', 'CLP', 'ISK']));
      expect(ADYEN.currencies).not.toContain('BIF');
    });
  });

  it('offers card operations, notifications and 3-D Secure, not debits, wallets or network tokens', () => {
    expect([...ADYEN.operations]).toEqual(
      expect.arrayContaining([
        'authorise',
        'sale',
        'partialCapture',
        'partialRefund',
        'reverse',
        'storeCard',
        'multiUseToken',
        'recurring',
        'notifications',
        'threeDsRedirect',
        'externalThreeDs',
      ]),
    );
    for (const missing of ['updateStoredCard', 'singleUseToken', 'networkToken', 'bankAccountDebit', 'payTo', 'applePay'] as const) {
      expect(ADYEN.operations.has(missing)).toBe(false);
    }
  });
});
