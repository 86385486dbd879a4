/** Card expiry dates as cards print them: month and year, valid through the month's last day. */
export interface Expiry {
  month: number;
  year: number;
}

/** Accepts "MM/YY", "MM/YYYY", "M/YY" and "MMYY". */
export function parseExpiry(text: string): Expiry | undefined {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return undefined;
  const month = Number(match[1]);
  const rawYear = match[2] ?? '';
  const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

export function formatExpiry({ month, year }: Expiry): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

/** True once the whole expiry month has passed, in UTC. */
export function isExpired({ month, year }: Expiry, now: Date): boolean {
  const firstDayAfter = Date.UTC(year, month, 1);
  return now.getTime() >= firstDayAfter;
}
