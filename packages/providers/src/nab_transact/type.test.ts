import { describe, expect, it } from 'vitest';
import { NAB_TRANSACT } from './type.js';

describe('nab_transact parameters', () => {
  it('takes a merchant id of three letters and four digits, or with a two-digit suffix, and a password', () => {
    for (const MerchantId of ['XYZ0010', 'ABC000123']) {
      expect(NAB_TRANSACT.checkParameters({ merchantid: ` ${MerchantId}`, PASSWORD: 'abcd1234' }, 'SANDBOX')).toEqual({
        ok: true,
        parameters: { MerchantId, Password: 'abcd1234' },
      });
    }
  });

  it('refuses a malformed or missing parameter, naming it', () => {
    expect(NAB_TRANSACT.checkParameters({ MerchantId: 'xyz0010', Password: 'abcd1234' }, 'SANDBOX')).toMatchObject({
      ok: false,
      problems: { MerchantId: expect.stringContaining('three letters') },
    });
    expect(NAB_TRANSACT.checkParameters({ MerchantId: 'XYZ00101' }, 'SANDBOX')).toMatchObject({
      ok: false,
      problems: { Password: 'Password is required' },
    });
  });

  it('takes live providers too, and says what staff look a call up by at NAB: its purchase order number', () => {
    expect(NAB_TRANSACT.checkParameters({ MerchantId: 'XYZ0010', Password: 'abcd1234' }, 'PRODUCTION')).toEqual({
      ok: true,
      parameters: { MerchantId: 'XYZ0010', Password: 'abcd1234' },
    });
    const lookup = NAB_TRANSACT.noIdempotency?.lookupReference;
    expect(lookup?.({ idempotencyKey: 'ch_1:2' })).toBe('ch_1:2');
    // A refund or completion quotes the payment's order number, and is looked up by it.
    expect(lookup?.({ idempotencyKey: 'rf_9', providerChargeId: '000123*ch_1:1**1000*AUD' })).toBe('ch_1:1');
  });

  it('calls NAB’s test host in SANDBOX and its live host in PRODUCTION', () => {
    expect(NAB_TRANSACT.endpoint('SANDBOX', {})).toBe('https://demo.transact.nab.com.au');
    expect(NAB_TRANSACT.endpoint('PRODUCTION', {})).toBe('https://transact.nab.com.au');
  });
});
