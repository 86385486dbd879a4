import { CURRENCIES } from '@gateway/core';
import { rescaleMinorUnits, rescaleUnits } from '../provider-type.js';

/**
 * Currencies as Adyen counts them (docs.adyen.com/development-resources/currency-codes): most have
 * two decimals, these none or three. Adyen differs from ISO 4217 for CVE and IDR (none instead of
 * two) and for CLP and ISK (two instead of none). Burundi's franc is not in Adyen's table.
 */
const ZERO_DECIMALS = new Set(['CVE', 'DJF', 'GNF', 'IDR', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);
const NOT_TAKEN = new Set(['BIF']);

/** ISO 4217 codes Adyen takes (a merchant account is enabled for its own selection of them). */
export const ADYEN_CURRENCIES: readonly string[] = [...CURRENCIES.keys()].filter((code) => !NOT_TAKEN.has(code));

const taken = new Set(ADYEN_CURRENCIES);

/** How many decimals Adyen counts for a currency it takes. */
export function adyenExponent(currency: string): number | undefined {
  if (!taken.has(currency)) return undefined;
  return ZERO_DECIMALS.has(currency) ? 0 : THREE_DECIMALS.has(currency) ? 3 : 2;
}

/** ISO minor units as Adyen's, or undefined when Adyen cannot express the amount. */
export function toAdyenUnits(currency: string, isoMinor: bigint): bigint | undefined {
  const exponent = adyenExponent(currency);
  return exponent === undefined ? undefined : rescaleMinorUnits(currency, isoMinor, exponent);
}

/** Adyen's minor units as ISO ones, or undefined when ISO cannot express the amount. */
export function fromAdyenUnits(currency: string, adyenMinor: bigint): bigint | undefined {
  const exponent = adyenExponent(currency);
  const iso = CURRENCIES.get(currency);
  return exponent === undefined || !iso ? undefined : rescaleUnits(adyenMinor, exponent, iso.exponent);
}
