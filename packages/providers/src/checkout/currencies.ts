import { CURRENCIES } from '@gateway/core';
import { rescaleMinorUnits, rescaleUnits } from '../provider-type.js';

/**
 * Currencies as Checkout.com counts them (checkout.com/docs/payments/accept-payments/calculating-the-amount):
 * most have two decimals, these none or three, as ISO 4217 counts them for the currencies the
 * gateway knows (Checkout.com also counts CLF in whole units; the gateway does not take fund codes).
 */
const ZERO_DECIMALS = new Set([
  'BIF',
  'CLF',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** ISO 4217 codes Checkout.com takes (a processing channel is enabled for its own selection of them). */
export const CHECKOUT_CURRENCIES: readonly string[] = [...CURRENCIES.keys()];

const taken = new Set(CHECKOUT_CURRENCIES);

/** How many decimals Checkout.com counts for a currency it takes. */
export function checkoutExponent(currency: string): number | undefined {
  if (!taken.has(currency)) return undefined;
  return ZERO_DECIMALS.has(currency) ? 0 : THREE_DECIMALS.has(currency) ? 3 : 2;
}

/** ISO minor units as Checkout.com's, or undefined when it cannot express the amount. */
export function toCheckoutUnits(currency: string, isoMinor: bigint): bigint | undefined {
  const exponent = checkoutExponent(currency);
  return exponent === undefined ? undefined : rescaleMinorUnits(currency, isoMinor, exponent);
}

/** Checkout.com's minor units as ISO ones, or undefined when ISO cannot express the amount. */
export function fromCheckoutUnits(currency: string, providerMinor: bigint): bigint | undefined {
  const exponent = checkoutExponent(currency);
  const iso = CURRENCIES.get(currency);
  return exponent === undefined || !iso ? undefined : rescaleUnits(providerMinor, exponent, iso.exponent);
}
