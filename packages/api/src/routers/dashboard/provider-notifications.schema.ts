import { z } from 'zod';

export const input = z.object({ providerId: z.string().max(64).optional() }).optional();
export const output = z.object({
  /** GATEWAY_NOTIFICATION_TIMEOUT_MINUTES: a modification pending longer is listed. */
  timeoutMinutes: z.number().int(),
  /** Modifications still waiting for their notification, of every age, per provider. */
  pending: z.array(z.object({ providerId: z.string(), count: z.number().int() })),
  /**
   * What staff must look at: failed by the provider (the charge was put back), named by a
   * notification with other figures (still pending), or overdue. `amount` and `currency` are the
   * gateway's (expected) figures.
   */
  modifications: z.array(
    z.object({
      modificationId: z.string(),
      providerId: z.string(),
      providerName: z.string(),
      chargeId: z.string(),
      reference: z.string().nullable(),
      kind: z.enum(['capture', 'void', 'refund']),
      amount: z.number(),
      currency: z.string(),
      status: z.enum(['PENDING', 'FAILED']),
      gatewayCode: z.string().nullable(),
      gatewayMessage: z.string().nullable(),
      /**
       * What the provider notified when a notification named it with another amount or currency
       * (it confirmed nothing); `amount` null when it could not be counted in the currency.
       */
      notified: z.object({ amount: z.number().nullable(), currency: z.string() }).nullable(),
      /** The provider failed it after confirming it (Adyen's REFUND_FAILED after REFUND). */
      reversedAfterConfirmation: z.boolean(),
      dateAdded: z.string(),
      dateSettled: z.string().nullable(),
    }),
  ),
});
