import { z } from 'zod';

export const input = z.void();
export const output = z.array(
  z.object({
    webhookSubscriptionId: z.string(),
    url: z.string(),
    types: z.array(z.string()),
    failing: z.boolean(),
    failures: z.number().int(),
    failingSince: z.string().nullable(),
    pausedUntil: z.string().nullable(),
  }),
);
