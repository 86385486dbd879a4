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

const day = z.object({
  date: z.string(),
  /** Captured amount by currency: amounts in different currencies are never added together. */
  volume: z.record(z.string(), z.number()),
  accepted: z.number().int(),
  failed: z.number().int(),
});

export const output = z.object({
  /** The zone whose days `dates` are: the one asked for, or UTC when the database does not know it. */
  timeZone: z.string(),
  dates: z.array(z.string()),
  providers: z.array(
    z.object({
      providerId: z.string(),
      name: z.string(),
      /** The provider's default currency. */
      currency: z.string(),
      /** Its default currency, then every other it captured payments in during the period. */
      currencies: z.array(z.string()),
      days: z.array(day),
    }),
  ),
});
