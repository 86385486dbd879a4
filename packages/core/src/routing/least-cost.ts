import { percentOf, type Decimal } from '../money/amount';

/** One line of a provider's fee schedule. A null scheme or international flag matches any card. */
export interface FeeRule {
  cardScheme: string | null;
  isInternationalCard: boolean | null;
  /** Fixed fee in minor units of the charge currency. */
  fixed: bigint;
  /** Percentage of the amount, exact (e.g. 1.75 for 1.75 %). */
  percentage: Decimal;
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
  fees: readonly FeeRule[];
  /** The card as this provider sees it (domestic or international depends on its country). */
  card: CardFacts;
}

export interface Route<P> {
  provider: P;
  estimatedCost: bigint | undefined;
}

/**
 * Orders eligible providers cheapest first. Providers whose schedule has no rule for this card
 * come last: an unknown cost is never assumed to be cheap.
 */
export function rankByCost<P>(amount: bigint, candidates: readonly RoutingCandidate<P>[]): Route<P>[] {
  return candidates
    .map((c) => ({ c, cost: estimateCost(amount, c.card, c.fees) }))
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
