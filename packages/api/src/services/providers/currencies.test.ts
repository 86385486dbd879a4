import { CURRENCIES, findCurrency, type ApiError, type Currency } from '@gateway/core';
import { PROVIDER_TYPES, rescaleMinorUnits, type ProviderType } from '@gateway/providers';
import { describe, expect, it } from 'vitest';
import { chargeRefusal, currencyRefusal } from './currencies';

const currency = (code: string): Currency => {
  const c = findCurrency(code);
  if (!c) throw new Error(code);
  return c;
};
const [AUD, USD, KWD, JPY] = ['AUD', 'USD', 'KWD', 'JPY'].map(currency) as [Currency, Currency, Currency, Currency];

const dummy = PROVIDER_TYPES.get('dummy') as ProviderType;
/** A type with a short list that counts KWD in hundredths only (as Stripe does: the last of three digits must be 0). */
const SHORT: ProviderType = {
  ...dummy,
  type: 'short',
  currencies: ['AUD', 'KWD', 'JPY'],
  providerAmount: (code, isoMinor) => (code === 'KWD' ? rescaleMinorUnits(code, isoMinor, 2) : isoMinor),
};
/** A type that can express nothing of JPY at all. */
const NO_YEN: ProviderType = { ...SHORT, type: 'no-yen', providerAmount: (code, isoMinor) => (code === 'JPY' ? undefined : isoMinor) };

const refusal = (error: ApiError | undefined) => error && { code: error.code, message: error.message, details: error.details };

describe('currencyRefusal', () => {
  it('is 29 naming the type (and the field) for a currency its list does not hold', () => {
    expect(currencyRefusal(SHORT, AUD)).toBeUndefined();
    expect(refusal(currencyRefusal(SHORT, USD, 'costData.1.currency'))).toEqual({
      code: 29,
      message: 'Providers of type short do not take USD',
      details: { 'costData.1.currency': 'Not taken by providers of type short' },
    });
  });

  it('lets the simulated acquirer take every ISO 4217 currency', () => {
    for (const iso of CURRENCIES.values()) expect(currencyRefusal(dummy, iso)).toBeUndefined();
  });
});

describe('chargeRefusal', () => {
  it('takes what the type can express in its own minor units', () => {
    expect(chargeRefusal(SHORT, AUD, 1n)).toBeUndefined();
    expect(chargeRefusal(SHORT, KWD, 1230n)).toBeUndefined();
  });

  it('refuses a currency the type does not take first (29)', () => {
    expect(refusal(chargeRefusal(SHORT, USD, 1000n))?.code).toBe(29);
  });

  it('is 2 saying why for an amount finer than the provider counts', () => {
    expect(refusal(chargeRefusal(SHORT, KWD, 1234n))).toEqual({
      code: 2,
      message: 'The amount 1.234 KWD cannot be charged: providers of type short take KWD in steps of 0.01',
      details: { amount: 'A multiple of 0.01' },
    });
    expect(refusal(chargeRefusal(NO_YEN, JPY, 500n))).toEqual({
      code: 2,
      message: 'The amount 500 JPY cannot be charged: providers of type no-yen cannot count this amount of JPY',
      details: { amount: 'Not an amount providers of type no-yen take' },
    });
  });
});
