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

  it('makes no live provider yet: a lost answer from NAB cannot be told from a payment never made', () => {
    expect(NAB_TRANSACT.checkParameters({ MerchantId: 'XYZ0010', Password: 'abcd1234' }, 'PRODUCTION')).toMatchObject({
      ok: false,
      problems: { MerchantId: expect.stringContaining('SANDBOX providers only') },
    });
  });

  it('calls NAB’s test host in SANDBOX and its live host in PRODUCTION', () => {
    expect(NAB_TRANSACT.endpoint('SANDBOX', {})).toBe('https://demo.transact.nab.com.au');
    expect(NAB_TRANSACT.endpoint('PRODUCTION', {})).toBe('https://transact.nab.com.au');
  });
});
