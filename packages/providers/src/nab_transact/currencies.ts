import { CURRENCIES } from '@gateway/core';

/**
 * The currencies a NAB Transact facility takes. NAB settles in AUD; other currencies need NAB to
 * configure the merchant for multi-currency, facility by facility. So a `nab_transact` provider
 * takes AUD, and whatever more the operator lists in GATEWAY_NAB_TRANSACT_CURRENCIES (ISO 4217
 * codes separated by commas, e.g. `AUD,NZD,USD`), read when the gateway asks, so a change needs no
 * rebuild. Amounts go to NAB in the currency's ISO 4217 minor units ("cents"; whole yen for JPY).
 */
export const NAB_CURRENCIES_VARIABLE = 'GATEWAY_NAB_TRANSACT_CURRENCIES';

let read: { from: string; currencies: readonly string[] } | undefined;

/** AUD and the operator's additions that ISO 4217 knows (unknown codes are left out). */
export function nabCurrencies(env: Readonly<Record<string, string | undefined>> = process.env): readonly string[] {
  const from = env[NAB_CURRENCIES_VARIABLE] ?? '';
  if (read?.from !== from) {
    const listed = from
      .split(',')
      .map((code) => code.trim().toUpperCase())
      .filter((code) => CURRENCIES.has(code));
    read = { from, currencies: [...new Set(['AUD', ...listed])] };
  }
  return read.currencies;
}

/** An amount in ISO minor units as NAB's `amount` (the same integer), or undefined for a currency not taken. */
export function toNabAmount(currency: string, isoMinor: bigint): bigint | undefined {
  return nabCurrencies().includes(currency) ? isoMinor : undefined;
}
