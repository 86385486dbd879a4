import { findCurrency } from '@gateway/core';
import { rescaleMinorUnits } from '../provider-type.js';

/**
 * The currencies Stripe takes for card payments and how it counts them (docs: stripe.com/docs/currencies).
 * Amounts go to Stripe as integers in its own minor units, which differ from ISO 4217 for some currencies.
 */

/** Stripe's presentment currencies for cards (as ISO 4217 codes; ANG, being replaced by XCG, is left out). */
export const STRIPE_CURRENCIES: readonly string[] = (
  'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BWP BYN BZD CAD CDF CHF CLP CNY ' +
  'COP CRC CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP GEL GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR ISK JMD ' +
  'JOD JPY KES KGS KHR KMF KRW KWD KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MUR MVR MWK MXN MYR MZN NAD ' +
  'NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SEK SGD SHP SLE SOS SRD SZL THB ' +
  'TJS TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VND VUV WST XAF XCD XOF XPF YER ZAR ZMW'
).split(' ');

/** Zero-decimal at Stripe: the amount is in whole units (MGA too, although ISO 4217 gives it two decimals). */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Three decimals at Stripe, but the last digit must be 0: amounts go to hundredths. */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * How Stripe writes a currency's amounts: `exponent` decimals in the integer it takes, of which only
 * `precision` may be other than 0. ISK is zero-decimal in ISO 4217 and effectively at Stripe, but
 * Stripe's API keeps two decimals for it (amounts divisible by 100). HUF and TWD are two-decimal for
 * charges (only their payouts are whole units), as in ISO 4217.
 */
function units(currency: string): { exponent: number; precision: number } {
  if (ZERO_DECIMAL.has(currency)) return { exponent: 0, precision: 0 };
  if (THREE_DECIMAL.has(currency)) return { exponent: 3, precision: 2 };
  if (currency === 'ISK') return { exponent: 2, precision: 0 };
  return { exponent: 2, precision: 2 };
}

const TAKEN = new Set(STRIPE_CURRENCIES);

/**
 * The largest amount Stripe takes: "up to eight digits (e.g., a value of 99999999 for a USD charge
 * of $999,999.99)", as its API description says of every amount; IDR, whose unit is worth little,
 * goes to twelve digits. Far within what its library sends exactly (Number.MAX_SAFE_INTEGER).
 */
export function maxStripeAmount(currency: string): bigint {
  return currency === 'IDR' ? 999_999_999_999n : 99_999_999n;
}

/** An amount in ISO minor units as Stripe's amount, or undefined when Stripe cannot take it. */
export function toStripeAmount(currency: string, isoMinor: bigint): bigint | undefined {
  if (!TAKEN.has(currency)) return undefined;
  const { exponent, precision } = units(currency);
  const counted = rescaleMinorUnits(currency, isoMinor, precision);
  const amount = counted === undefined ? undefined : counted * 10n ** BigInt(exponent - precision);
  return amount !== undefined && amount <= maxStripeAmount(currency) ? amount : undefined;
}

/** A Stripe amount (a number in its answers) in ISO minor units, or undefined if it has digits ISO 4217 does not count. */
export function fromStripeAmount(currency: string, stripeAmount: number): bigint | undefined {
  const iso = findCurrency(currency);
  if (!iso || !TAKEN.has(currency) || !Number.isSafeInteger(stripeAmount)) return undefined;
  const shift = iso.exponent - units(currency).exponent;
  const amount = BigInt(stripeAmount);
  if (shift >= 0) return amount * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  return amount % divisor === 0n ? amount / divisor : undefined;
}
