import { z } from 'zod';

export const input = z.object({ providerId: z.string().max(64).optional() }).optional();
export const output = z.object({
  /** GATEWAY_NOTIFICATION_TIMEOUT_MINUTES: a modification pending longer is listed. */
  timeoutMinutes: z.number().int(),
  /** Modifications still waiting for their notification, of every age, per provider. */
  pending: z.array(z.object({ providerId: z.string(), count: z.number().int() })),
  /** What staff must look at: failed by the provider (the charge was put back), or overdue. */
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
      dateAdded: z.string(),
      dateSettled: z.string().nullable(),
    }),
  ),
});
