import { parseDecimal, toMinorUnits, toWireAmount } from '@gateway/core/money/amount';
import { findCurrency } from '@gateway/core/money/currencies';

/** Money and dates as people read them. */

/**
 * `amount` less `taken`, amounts as the API gives them, computed in the currency's minor units
 * (0.3 − 0.1 is 0.2, not 0.19999999999999998); undefined for a currency it does not know.
 */
export function amountLeft(amount: number, taken: number, currencyCode: string): number | undefined {
  const currency = findCurrency(currencyCode);
  if (!currency) return undefined;
  const minor = (value: number) => {
    const decimal = parseDecimal(value);
    return decimal && toMinorUnits(decimal, currency);
  };
  const [whole, part] = [minor(amount), minor(taken)];
  return whole === undefined || part === undefined ? undefined : toWireAmount(whole - part, currency);
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** Metadata as `key=value` pairs on one line; null when there is none. */
export function formatMetadata(metadata: Record<string, string> | null): string | null {
  return (
    metadata &&
    Object.entries(metadata)
      .map(([key, value]) => `${key}=${value}`)
      .join(', ')
  );
}
