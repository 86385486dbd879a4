import type { Currency } from './currencies';

/**
 * Money is handled as integer minor units (bigint) from the moment it is parsed. Decimal text is
 * converted with string and bigint operations only: no binary floating point ever touches an
 * amount. Wire numbers (JSON doubles) are first turned into their shortest decimal text, which is
 * exactly what the client wrote for any amount of at most 15 significant digits.
 */

export type AmountProblem = 'not_a_number' | 'not_positive' | 'too_precise' | 'too_large';

export type AmountResult = { ok: true; minor: bigint } | { ok: false; problem: AmountProblem };

/** Largest amount we accept, in minor units: 15 digits, so every amount is exact as a JSON number. */
export const MAX_MINOR_UNITS = 10n ** 15n - 1n;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** An exact decimal: value = units × 10^-scale. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Longest decimal text we read: far beyond any amount, short enough to parse in constant time. */
const MAX_DECIMAL_TEXT = 64;

/** Parses decimal text such as "15.5", "-3", "1e3" or a finite JSON number into an exact Decimal. */
export function parseDecimal(value: string | number): Decimal | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const text = String(value).trim();
  if (text.length > MAX_DECIMAL_TEXT) return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const exp = Number(exponent);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100) return undefined;
  const digits = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exp;
  let units = digits;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/**
 * Whether a decimal's magnitude is below 10^15 (major units): no amount is larger (MAX_MINOR_UNITS),
 * and any bound below it, in the minor units of any currency (3 decimals at most), fits a BIGINT.
 */
export function isWithinAmountRange(d: Decimal): boolean {
  const magnitude = d.units < 0n ? -d.units : d.units;
  return magnitude < 10n ** BigInt(15 + d.scale);
}

/** Removes trailing zero digits after the decimal point. */
function normalise(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

/** Converts a decimal to minor units of the currency when it has no more digits than allowed. */
export function toMinorUnits(d: Decimal, currency: Currency): bigint | undefined {
  const n = normalise(d);
  if (n.scale > currency.exponent) return undefined;
  return n.units * 10n ** BigInt(currency.exponent - n.scale);
}

/** Parses a payment amount: positive, finite, at most the currency's decimals, below the maximum. */
export function parseAmount(value: string | number, currency: Currency): AmountResult {
  const d = parseDecimal(value);
  if (!d) return { ok: false, problem: 'not_a_number' };
  if (d.units <= 0n) return { ok: false, problem: 'not_positive' };
  const minor = toMinorUnits(d, currency);
  if (minor === undefined) return { ok: false, problem: 'too_precise' };
  if (minor > MAX_MINOR_UNITS) return { ok: false, problem: 'too_large' };
  return { ok: true, minor };
}

/** Why an amount is refused, in words staff read: batch checks and the dashboard's forms say it alike. */
export function describeAmountProblem(problem: AmountProblem, currency: Currency): string {
  switch (problem) {
    case 'not_a_number':
      return 'Amount is not a number';
    case 'not_positive':
      return 'Amount must be greater than zero';
    case 'too_precise':
      return currency.exponent === 0
        ? `${currency.code} amounts have no decimal places`
        : `${currency.code} amounts have at most ${currency.exponent} decimal places`;
    case 'too_large':
      return 'Amount is too large';
  }
}

/** Minimal decimal text of an amount in minor units: 1550n AUD → "15.5", 20000n → "200". */
export function formatAmount(minor: bigint, currency: Currency): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(currency.exponent + 1, '0');
  const cut = digits.length - currency.exponent;
  const whole = digits.slice(0, cut);
  const fraction = digits.slice(cut).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The JSON number for an amount. Parsing the exact decimal text yields the double whose shortest
 * representation is that same text, so JSON.stringify writes "15.5", never "15.500000001".
 */
export function toWireAmount(minor: bigint, currency: Currency): number {
  return Number(formatAmount(minor, currency));
}

/** Divides with rounding half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n + d / 2n) / d;
  return negative ? -q : q;
}

/** `percent` % of an amount in minor units (percent is exact decimal text such as "1.75"), rounded half up. */
export function percentOf(minor: bigint, percent: Decimal): bigint {
  return divideRounded(minor * percent.units, 100n * 10n ** BigInt(percent.scale));
}
