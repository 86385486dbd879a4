import { divideRounded, type Decimal } from './amount';
import { findCurrency, type Currency } from './currencies';

/**
 * Exchange rates the operator configures (GATEWAY_EXCHANGE_RATES), used only to estimate a
 * provider's fixed fee in another currency: the gateway never converts a payment. `FROM:TO=RATE`
 * means 1 FROM is RATE TO; each rate also serves the other way (dividing by it) unless that way
 * has a rate of its own.
 */
export type ExchangeRates = ReadonlyMap<string, Decimal>;

export const NO_EXCHANGE_RATES: ExchangeRates = new Map();

const pair = (from: string, to: string) => `${from}:${to}`;

/** A rate: a positive decimal of at most 12 digits before and 12 after the point, no exponent. */
const RATE = /^(\d{1,12})(?:\.(\d{1,12}))?$/;
const ENTRY = /^([A-Za-z]{3})\s*:\s*([A-Za-z]{3})\s*=(.*)$/;

/**
 * Reads `USD:AUD=1.5234,EUR:AUD=1.6612` (blank: no rates). Throws an Error saying which entry is
 * wrong: codes must be ISO 4217 and differ, each pair appears once, rates are positive decimals.
 */
export function parseExchangeRates(text: string): ExchangeRates {
  const rates = new Map<string, Decimal>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = ENTRY.exec(entry);
    if (!match) throw new Error(`"${entry}" is not FROM:TO=RATE (e.g. USD:AUD=1.5234)`);
    const [, fromText = '', toText = '', rateText = ''] = match;
    const [from, to] = [fromText.toUpperCase(), toText.toUpperCase()];
    for (const code of [from, to]) if (!findCurrency(code)) throw new Error(`"${entry}": ${code} is not an ISO 4217 currency`);
    if (from === to) throw new Error(`"${entry}": a rate needs two different currencies`);
    if (rates.has(pair(from, to))) throw new Error(`"${entry}": ${from}:${to} is given twice`);
    const rate = RATE.exec(rateText.trim());
    const units = rate ? BigInt(`${rate[1]}${rate[2] ?? ''}`) : 0n;
    if (!rate || units === 0n) throw new Error(`"${entry}": the rate must be a positive decimal such as 1.5234`);
    rates.set(pair(from, to), { units, scale: rate[2]?.length ?? 0 });
  }
  return rates;
}

/**
 * An amount in minor units of `from` as minor units of `to`, exact until one rounding half up to
 * `to`'s minor units: by the rate from→to, else dividing by the rate to→from; undefined with neither.
 */
export function convertMinorUnits(minor: bigint, from: Currency, to: Currency, rates: ExchangeRates): bigint | undefined {
  if (from.code === to.code) return minor;
  // minor × 10^-from.exponent FROM = that × rate TO = (that × rate) × 10^to.exponent minor units of TO.
  const exponents = { numerator: 10n ** BigInt(to.exponent), denominator: 10n ** BigInt(from.exponent) };
  const direct = rates.get(pair(from.code, to.code));
  if (direct) {
    return divideRounded(minor * direct.units * exponents.numerator, exponents.denominator * 10n ** BigInt(direct.scale));
  }
  const inverse = rates.get(pair(to.code, from.code));
  if (inverse) {
    return divideRounded(minor * 10n ** BigInt(inverse.scale) * exponents.numerator, exponents.denominator * inverse.units);
  }
  return undefined;
}
