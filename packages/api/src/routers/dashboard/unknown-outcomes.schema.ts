import { z } from 'zod';

export const listInput = z
  .object({ settled: z.boolean().optional(), /** Only this charge's. */ chargeId: z.string().min(1).max(64).optional() })
  .optional();

/** Calls whose outcome is unknown at the provider, held for staff (docs/outcome-unknown.md): open ones, or the last settled. */
export const listOutput = z.array(
  z.object({
    /** The call's idempotency key. */
    id: z.string(),
    chargeId: z.string(),
    operation: z.enum(['payment', 'authorisation', 'capture', 'void', 'refund']),
    refundId: z.string().nullable(),
    providerId: z.string(),
    providerName: z.string(),
    providerType: z.string(),
    /** What staff look the call up by at the provider (NAB: the purchase order number). */
    providerReference: z.string(),
    amount: z.number(),
    currency: z.string(),
    reference: z.string().nullable(),
    cardMasked: z.string().nullable(),
    dateAdded: z.string(),
    resolvedAt: z.string().nullable(),
    resolution: z.enum(['made', 'not_made']).nullable(),
    resolvedBy: z.string().nullable(),
    /** The staff member who settled it (resolvedBy is their user id), for people to read; null when removed since. */
    resolvedByStaff: z.object({ name: z.string(), email: z.string() }).nullable(),
  }),
);

/** A provider's id of a transaction, as its portal shows it: letters, digits, '-' and '_'. */
const providerId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _ only');

export const settleInput = z.object({
  id: z.string().min(1).max(200),
  /** Whether the provider made the call (staff looked it up there). */
  made: z.boolean(),
  /** The provider's id of the payment or refund it made (NAB: txnID). */
  transactionId: providerId.optional(),
  /** For an authorisation it made, the provider's id of it (NAB: preauthID). */
  authorisationId: providerId.optional(),
});
export const settleOutput = z.object({ chargeId: z.string() });
