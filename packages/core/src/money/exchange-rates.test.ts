import { describe, expect, it } from 'vitest';
import { findCurrency, type Currency } from './currencies';
import { convertMinorUnits, NO_EXCHANGE_RATES, parseExchangeRates } from './exchange-rates';

const currency = (code: string): Currency => {
  const c = findCurrency(code);
  if (!c) throw new Error(code);
  return c;
};
const [AUD, USD, JPY, KWD] = ['AUD', 'USD', 'JPY', 'KWD'].map(currency) as [Currency, Currency, Currency, Currency];

describe('parseExchangeRates', () => {
  it('reads FROM:TO=RATE pairs as exact decimals, codes in any case, blanks ignored', () => {
    const rates = parseExchangeRates(' usd:AUD=1.5234, EUR : AUD = 1.6612 ,,AUD:JPY=97');
    expect([...rates]).toEqual([
      ['USD:AUD', { units: 15234n, scale: 4 }],
      ['EUR:AUD', { units: 16612n, scale: 4 }],
      ['AUD:JPY', { units: 97n, scale: 0 }],
    ]);
    expect(parseExchangeRates('').size).toBe(0);
  });

  it.each([
    ['USD:AUD', 'is not FROM:TO=RATE'],
    ['USDAUD=1.5', 'is not FROM:TO=RATE'],
    ['USD:ABC=1.5', 'ABC is not an ISO 4217 currency'],
    ['USD:usd=1', 'two different currencies'],
    ['USD:AUD=1.5,usd:aud=1.6', 'USD:AUD is given twice'],
    ['USD:AUD=0', 'positive decimal'],
    ['USD:AUD=0.000', 'positive decimal'],
    ['USD:AUD=-1.5', 'positive decimal'],
    ['USD:AUD=1e3', 'positive decimal'],
    ['USD:AUD=1.', 'positive decimal'],
    ['USD:AUD=1,5', 'is not FROM:TO=RATE'],
    ['USD:AUD=1.1234567890123', 'positive decimal'],
  ])('refuses %s', (text, problem) => {
    expect(() => parseExchangeRates(text)).toThrow(problem);
  });
});

describe('convertMinorUnits', () => {
  it('multiplies by the rate from→to and rounds half up once, in the target minor units', () => {
    const rates = parseExchangeRates('AUD:USD=0.65,AUD:JPY=97.125,USD:KWD=0.30745');
    expect(convertMinorUnits(30n, AUD, USD, rates)).toBe(20n); // 19.5 cents → 20
    expect(convertMinorUnits(10n, AUD, USD, rates)).toBe(7n); // 6.5 → 7
    expect(convertMinorUnits(9n, AUD, USD, rates)).toBe(6n); // 5.85 → 6
    expect(convertMinorUnits(30n, AUD, JPY, rates)).toBe(29n); // 0.30 AUD = 29.1375 yen
    expect(convertMinorUnits(30n, USD, KWD, rates)).toBe(92n); // 0.30 USD = 0.092235 KWD = 92.235 fils
    expect(convertMinorUnits(0n, AUD, USD, rates)).toBe(0n);
  });

  it('divides by the rate to→from when there is none from→to', () => {
    const rates = parseExchangeRates('USD:AUD=1.5234,AUD:JPY=100');
    expect(convertMinorUnits(30n, AUD, USD, rates)).toBe(20n); // 0.30 / 1.5234 = 0.19692… USD
    expect(convertMinorUnits(50n, JPY, AUD, rates)).toBe(50n); // 50 yen / 100 = 0.50 AUD
    expect(convertMinorUnits(1n, JPY, AUD, rates)).toBe(1n); // 0.01 AUD exactly
    expect(convertMinorUnits(30n, USD, AUD, rates)).toBe(46n); // 0.30 × 1.5234 = 0.45702 AUD
  });

  it('prefers the rate given for the direction asked', () => {
    const rates = parseExchangeRates('USD:AUD=2,AUD:USD=0.4');
    expect(convertMinorUnits(100n, AUD, USD, rates)).toBe(40n);
    expect(convertMinorUnits(100n, USD, AUD, rates)).toBe(200n);
  });

  it('is the amount itself in the same currency, and undefined without a rate', () => {
    expect(convertMinorUnits(123n, AUD, AUD, NO_EXCHANGE_RATES)).toBe(123n);
    expect(convertMinorUnits(123n, AUD, USD, NO_EXCHANGE_RATES)).toBeUndefined();
    expect(convertMinorUnits(123n, AUD, USD, parseExchangeRates('EUR:USD=1.1'))).toBeUndefined();
  });
});
