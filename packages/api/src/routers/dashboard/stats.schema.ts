import { z } from 'zod';

/** Whether this runtime knows the IANA time zone (an alias such as Europe/Kiev included). */
function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const input = z.object({
  days: z.number().int().min(1).max(90).default(14),
  /**
   * The staff member's IANA time zone, whose days the charts count (the browser's). A name, not
   * an offset: "+05:30" means the opposite to PostgreSQL and to JavaScript.
   */
  timeZone: z
    .string()
    .max(64)
    .regex(/^[A-Za-z][\w+-]*(?:\/[\w+-]+)*$/, 'An IANA time zone name, such as Australia/Sydney')
    .refine(knownTimeZone, 'Unknown time zone')
    .default('UTC'),
});

/** A chart's line: a provider's (key: its providerId), or "Other" (key: other) adding up the providers past the largest. */
const series = <T extends z.ZodType>(value: T) =>
  z.object({ key: z.string(), name: z.string(), /** One per date. */ values: z.array(value) });

export const output = z.object({
  /** The zone whose days `dates` are: the one asked for, or UTC when the database does not know it. */
  timeZone: z.string(),
  dates: z.array(z.string()),
  /** The period's figures per currency (amounts of different currencies are never added together). */
  totals: z.array(
    z.object({
      currency: z.string(),
      /** Captured amount of the period's charges. */
      volume: z.number(),
      /** Charges the provider accepted. */
      payments: z.number().int(),
      /** Charges that failed. */
      failed: z.number().int(),
      /** Accepted out of accepted and failed charges, in percent; null with neither. */
      successRate: z.number().nullable(),
      /** Refunds made in the period (of any charge), and their amount. */
      refunds: z.number().int(),
      refunded: z.number(),
    }),
  ),
  /** Captured volume per provider and day, one chart per currency: the providers' default currencies, then those they took payments in. */
  volume: z.array(z.object({ currency: z.string(), series: z.array(series(z.number())) })),
  /** Accepted payments out of all provider attempts (declines, errors, timeouts) per provider and day, in percent; null for none. */
  successRate: z.array(series(z.number().nullable())),
});
