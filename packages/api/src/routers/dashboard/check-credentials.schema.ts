import { z } from 'zod';

export const input = z.object({ providerId: z.string().min(1).max(64) });
export const output = z.object({
  ok: z.boolean(),
  /** The connector's own text (never the provider's free text, never a credential). */
  message: z.string(),
  gatewayCode: z.string().optional(),
});
