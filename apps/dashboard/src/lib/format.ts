/** Money and dates as people read them. */

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
