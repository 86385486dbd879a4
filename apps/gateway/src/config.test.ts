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
