import { CURRENCIES, parseDecimal, type Decimal } from '@gateway/core';

import { DEFAULT_PAGE_SIZE } from './common';

/** Page size and offset of a search, with the defaults every list answers with. */
export function paging(input: { limit?: number; skip?: number }) {
  return { take: input.limit ?? DEFAULT_PAGE_SIZE, skip: input.skip ?? 0 };
}

export function dateRange(input: { addedAfter?: Date; addedBefore?: Date }, field = 'dateAdded') {
  if (!input.addedAfter && !input.addedBefore) return {};
  return { [field]: { ...(input.addedAfter && { gt: input.addedAfter }), ...(input.addedBefore && { lt: input.addedBefore }) } };
}

/** The words of a search text, split at white space. */
export const wordsOf = (text: string | undefined): string[] => text?.trim().split(/\s+/).filter(Boolean) ?? [];

/** A text column's condition: holds `text`, in any letter case; `%` and `_` are plain characters. */
export const containing = (text: string) => ({ contains: text.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' as const });

/** Every word of `text` in one of `fields` (contains, any letter case). */
export function textSearch(text: string | undefined, fields: string[]): Record<string, unknown>[] {
  return wordsOf(text).map((word) => ({ OR: fields.map((field) => ({ [field]: containing(word) })) }));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** The threshold in minor units of currencies with `exponent` decimals, rounded the safe way. */
function scaled(threshold: Decimal, exponent: number, round: 'floor' | 'ceil'): bigint {
  const shift = exponent - threshold.scale;
  if (shift >= 0) return threshold.units * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const floor = floorDiv(threshold.units, divisor);
  return round === 'floor' || threshold.units % divisor === 0n ? floor : floor + 1n;
}

/**
 * Strict amount bounds (`>` / `<`, in major units) over rows that store minor units of their own
 * currency: one condition per currency exponent, compared exactly in integers.
 */
export function amountRange(
  greaterThan: string | number | undefined,
  lessThan: string | number | undefined,
  field = 'amount',
): Record<string, unknown> {
  const gt = greaterThan === undefined ? undefined : parseDecimal(greaterThan);
  const lt = lessThan === undefined ? undefined : parseDecimal(lessThan);
  if (!gt && !lt) return {};
  const exponents = [...new Set([...CURRENCIES.values()].map((c) => c.exponent))];
  return {
    OR: exponents.map((exponent) => ({
      currency: { in: [...CURRENCIES.values()].filter((c) => c.exponent === exponent).map((c) => c.code) },
      [field]: {
        ...(gt && { gt: scaled(gt, exponent, 'floor') }),
        ...(lt && { lt: scaled(lt, exponent, 'ceil') }),
      },
    })),
  };
}
