import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../money/amount';
import { findCurrency, type Currency } from '../money/currencies';
import { NO_EXCHANGE_RATES, parseExchangeRates } from '../money/exchange-rates';
import { estimateCost, feeRulesIn, rankByCost, type FeeLine, type FeeRule } from './least-cost';

const pct = (text: string) => {
  const d = parseDecimal(text);
  if (!d) throw new Error(text);
  return d;
};
const rule = (cardScheme: string | null, isInternationalCard: boolean | null, fixed: bigint, percentage: string): FeeRule => ({
  cardScheme,
  isInternationalCard,
  fixed,
  percentage: pct(percentage),
});

const visaDomestic = { scheme: 'VISA', international: false };
const visaInternational = { scheme: 'VISA', international: true };

describe('estimateCost', () => {
  const schedule = [rule(null, null, 30n, '2.9'), rule('VISA', false, 10n, '1.5'), rule('VISA', true, 20n, '3')];

  it('applies the most specific matching rule', () => {
    expect(estimateCost(10000n, visaDomestic, schedule)).toBe(160n);
    expect(estimateCost(10000n, visaInternational, schedule)).toBe(320n);
    expect(estimateCost(10000n, { scheme: 'AMEX', international: false }, schedule)).toBe(320n);
  });

  it('is undefined when no rule applies', () => {
    expect(estimateCost(10000n, visaDomestic, [rule('AMEX', null, 0n, '1')])).toBeUndefined();
  });
});

describe('rankByCost', () => {
  it('judges each provider with its own view of the card', () => {
    const schedule = [rule('VISA', false, 0n, '1'), rule('VISA', true, 0n, '3')];
    const routes = rankByCost(10000n, [
      { provider: 'foreign', rank: 0, fees: schedule, card: visaInternational },
      { provider: 'home', rank: 1, fees: schedule, card: visaDomestic },
    ]);
    expect(routes.map((r) => r.provider)).toEqual(['home', 'foreign']);
  });

  it('puts the cheapest first, unknown costs last, ties in rank order', () => {
    const card = visaDomestic;
    const routes = rankByCost(10000n, [
      { provider: 'unknown', rank: 0, fees: [], card },
      { provider: 'dear', rank: 1, fees: [rule(null, null, 50n, '2')], card },
      { provider: 'cheap-b', rank: 3, fees: [rule('VISA', null, 0n, '1')], card },
      { provider: 'cheap-a', rank: 2, fees: [rule(null, false, 100n, '0')], card },
    ]);
    expect(routes.map((r) => [r.provider, r.estimatedCost])).toEqual([
      ['cheap-a', 100n],
      ['cheap-b', 100n],
      ['dear', 250n],
      ['unknown', undefined],
    ]);
  });
});

const currency = (code: string): Currency => {
  const c = findCurrency(code);
  if (!c) throw new Error(code);
  return c;
};
const [AUD, USD, JPY] = ['AUD', 'USD', 'JPY'].map(currency) as [Currency, Currency, Currency];
const line = (code: string, fixed: bigint, percentage: string, cardScheme: string | null = null): FeeLine => ({
  ...rule(cardScheme, null, fixed, percentage),
  currency: code,
});

describe('feeRulesIn', () => {
  const schedule = [line('AUD', 30n, '1.5'), line('AUD', 10n, '1', 'VISA'), line('JPY', 40n, '2')];

  it('takes the lines in the charge currency when there are any', () => {
    expect(feeRulesIn(schedule, JPY, AUD, NO_EXCHANGE_RATES)).toEqual([schedule[2]]);
    expect(feeRulesIn(schedule, AUD, AUD, NO_EXCHANGE_RATES)).toEqual([schedule[0], schedule[1]]);
  });

  it('converts the fixed fees of the provider-currency lines at the rate, half up, percentages as they are', () => {
    const rules = feeRulesIn(schedule, USD, AUD, parseExchangeRates('USD:AUD=1.5234'));
    expect(rules?.map((r) => [r.cardScheme, r.fixed, r.percentage])).toEqual([
      [null, 20n, { units: 15n, scale: 1 }], // 0.30 AUD = 0.1969… USD
      ['VISA', 7n, { units: 1n, scale: 0 }], // 0.10 AUD = 0.0656… USD
    ]);
    // 100 USD with a domestic Visa: 1 % + 0.07.
    expect(estimateCost(10000n, visaDomestic, rules ?? [])).toBe(107n);
  });

  it('is undefined without a rate: no known cost in that currency', () => {
    expect(feeRulesIn(schedule, USD, AUD, NO_EXCHANGE_RATES)).toBeUndefined();
    expect(feeRulesIn(schedule, USD, AUD, parseExchangeRates('EUR:AUD=1.6'))).toBeUndefined();
  });

  it('has no rules (unknown cost, ranked last) for a schedule with no line in the provider currency', () => {
    expect(feeRulesIn([], USD, AUD, NO_EXCHANGE_RATES)).toEqual([]);
    expect(feeRulesIn([], AUD, AUD, NO_EXCHANGE_RATES)).toEqual([]);
    expect(feeRulesIn([line('JPY', 40n, '2')], USD, AUD, NO_EXCHANGE_RATES)).toEqual([]);
    expect(feeRulesIn([line('JPY', 40n, '2')], AUD, AUD, NO_EXCHANGE_RATES)).toEqual([]);
  });
});

describe('rankByCost in a currency', () => {
  it('leaves out the providers with no known cost in the charge currency, and ranks the others in it', () => {
    const rates = parseExchangeRates('AUD:USD=0.5');
    const card = visaDomestic;
    const candidate = (provider: string, rank: number, lines: FeeLine[], home = AUD) => ({
      provider,
      rank,
      fees: feeRulesIn(lines, USD, home, rates),
      card,
    });
    const routes = rankByCost(10000n, [
      candidate('aud-no-rate', 0, [line('EUR', 0n, '0')], currency('EUR')),
      candidate('aud-converted', 1, [line('AUD', 100n, '1')]),
      candidate('usd-lines', 2, [line('AUD', 0n, '0'), line('USD', 0n, '1.2')]),
      candidate('no-schedule', 3, []),
    ]);
    // 1 % of 100 USD + 1.00 AUD at 0.5 = 1.50 USD; 1.2 % = 1.20 USD.
    expect(routes.map((r) => [r.provider, r.estimatedCost])).toEqual([
      ['usd-lines', 120n],
      ['aud-converted', 150n],
      ['no-schedule', undefined],
    ]);
  });
});
