import { describe, expect, it } from 'vitest';
import { detectScheme, isValidCardNumber, isValidCcv, maskCardNumber, normaliseCardNumber, passesLuhn } from './card-number';
import { isExpired, parseExpiry } from './expiry';
import { isInternationalCard, lookupIin } from './iin';

describe('card numbers', () => {
  it.each([
    ['4111111111111111', 'VISA'],
    ['4242424242424242', 'VISA'],
    ['5555555555554444', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['30569309025904', 'DINERS'],
    ['6200000000000005', 'UNIONPAY'],
  ] as const)('%s is a valid %s', (number, scheme) => {
    expect(passesLuhn(number)).toBe(true);
    expect(isValidCardNumber(number)).toBe(true);
    expect(detectScheme(number)).toBe(scheme);
  });

  it('refuses Luhn failures and impossible lengths', () => {
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(isValidCardNumber('4111111111111112')).toBe(false);
    expect(isValidCardNumber('37828224631000')).toBe(false); // 14-digit "Amex"
  });

  it('normalises spaces and dashes, refuses other characters', () => {
    expect(normaliseCardNumber('4111 1111-1111 1111')).toBe('4111111111111111');
    expect(normaliseCardNumber('4111x11111111111')).toBeUndefined();
    expect(normaliseCardNumber('41111')).toBeUndefined();
  });

  it('masks all but the first six and last four digits', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111******1111');
    expect(maskCardNumber('378282246310005')).toBe('378282*****0005');
  });

  it('accepts 3 or 4 digit CCVs only', () => {
    expect(isValidCcv('123')).toBe(true);
    expect(isValidCcv('1234')).toBe(true);
    expect(isValidCcv('12')).toBe(false);
    expect(isValidCcv('12a')).toBe(false);
  });
});

describe('expiry', () => {
  it('parses the usual spellings', () => {
    expect(parseExpiry('10/30')).toEqual({ month: 10, year: 2030 });
    expect(parseExpiry('1/2031')).toEqual({ month: 1, year: 2031 });
    expect(parseExpiry('1230')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('13/30')).toBeUndefined();
    expect(parseExpiry('ab/cd')).toBeUndefined();
  });

  it('is valid through the last day of the month', () => {
    const expiry = { month: 2, year: 2026 };
    expect(isExpired(expiry, new Date('2026-02-28T23:59:59Z'))).toBe(false);
    expect(isExpired(expiry, new Date('2026-03-01T00:00:00Z'))).toBe(true);
  });
});

describe('IIN data', () => {
  it('knows domestic Australian test ranges and treats unknown countries as international', () => {
    const au = lookupIin('4242424242424242');
    expect(au).toMatchObject({ scheme: 'VISA', countryCode: 'AU', cardType: 'CREDIT' });
    expect(isInternationalCard(au, 'AUS')).toBe(false);
    expect(isInternationalCard(lookupIin('4111111111111111'), 'AUS')).toBe(true);
    expect(isInternationalCard(lookupIin('6011111111111117'), 'AUS')).toBe(true);
  });
});
