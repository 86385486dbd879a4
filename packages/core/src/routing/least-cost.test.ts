import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../money/amount';
import { estimateCost, rankByCost, type FeeRule } from './least-cost';

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
