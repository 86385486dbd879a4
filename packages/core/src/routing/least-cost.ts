import { percentOf, type Decimal } from '../money/amount';
import type { Currency } from '../money/currencies';
import { convertMinorUnits, type ExchangeRates } from '../money/exchange-rates';

/** One line of a provider's fee schedule. A null scheme or international flag matches any card. */
export interface FeeRule {
  cardScheme: string | null;
  isInternationalCard: boolean | null;
  /** Fixed fee in minor units of the charge currency. */
  fixed: bigint;
  /** Percentage of the amount, exact (e.g. 1.75 for 1.75 %). */
  percentage: Decimal;
}

/** A line of a fee schedule as a provider keeps it: its fixed fee in minor units of the line's own currency. */
export interface FeeLine extends FeeRule {
  currency: string;
}

/**
 * The fee rules that price a charge in `charge` currency for a provider whose own (default)
 * currency is `provider`, with the fixed fees in minor units of the charge currency:
 * - the schedule's lines in the charge currency, when it has any;
 * - else, when it has no line in the provider currency either (no schedule at all, or lines in
 *   other currencies only): none, so the cost is unknown and the provider ranks last, as a
 *   provider without a schedule always has;
 * - else the provider-currency lines, their fixed fees converted at the operator's rate;
 * - undefined when there is no rate: no known cost in that currency, so the provider takes no
 *   part in least-cost routing for it.
 */
export function feeRulesIn(lines: readonly FeeLine[], charge: Currency, provider: Currency, rates: ExchangeRates): FeeRule[] | undefined {
  const own = lines.filter((line) => line.currency === charge.code);
  if (own.length > 0) return own;
  const home = lines.filter((line) => line.currency === provider.code);
  if (home.length === 0) return [];
  const converted: FeeRule[] = [];
  for (const line of home) {
    const fixed = convertMinorUnits(line.fixed, provider, charge, rates);
    if (fixed === undefined) return undefined;
    converted.push({ ...line, fixed });
  }
  return converted;
}

export interface CardFacts {
  scheme: string;
  international: boolean;
}

function matches(rule: FeeRule, card: CardFacts): boolean {
  return (
    (rule.cardScheme === null || rule.cardScheme.toUpperCase() === card.scheme) &&
    (rule.isInternationalCard === null || rule.isInternationalCard === card.international)
  );
}

function specificity(rule: FeeRule): number {
  return (rule.cardScheme === null ? 0 : 2) + (rule.isInternationalCard === null ? 0 : 1);
}

/** The fee a schedule charges for this card and amount; undefined when no rule applies. */
export function estimateCost(amount: bigint, card: CardFacts, rules: readonly FeeRule[]): bigint | undefined {
  const rule = rules
    .filter((r) => matches(r, card))
    .reduce<FeeRule | undefined>((best, r) => (best === undefined || specificity(r) > specificity(best) ? r : best), undefined);
  return rule ? percentOf(amount, rule.percentage) + rule.fixed : undefined;
}

export interface RoutingCandidate<P> {
  provider: P;
  /** Settles ties deterministically (e.g. creation order). */
  rank: number;
  /** The schedule in the charge currency (feeRulesIn); undefined: no known cost, so not a candidate. */
  fees: readonly FeeRule[] | undefined;
  /** The card as this provider sees it (domestic or international depends on its country). */
  card: CardFacts;
}

export interface Route<P> {
  provider: P;
  estimatedCost: bigint | undefined;
}

/**
 * Orders eligible providers cheapest first. Providers whose schedule has no rule for this card
 * come last: an unknown cost is never assumed to be cheap. Providers with no schedule in the
 * charge currency (fees undefined) are left out.
 */
export function rankByCost<P>(amount: bigint, candidates: readonly RoutingCandidate<P>[]): Route<P>[] {
  return candidates
    .flatMap((c) => (c.fees === undefined ? [] : [{ c, cost: estimateCost(amount, c.card, c.fees) }]))
    .sort((a, b) => {
      if (a.cost === undefined || b.cost === undefined) {
        if (a.cost !== b.cost) return a.cost === undefined ? 1 : -1;
      } else if (a.cost !== b.cost) {
        return a.cost < b.cost ? -1 : 1;
      }
      return a.c.rank - b.c.rank;
    })
    .map(({ c, cost }) => ({ provider: c.provider, estimatedCost: cost }));
}
