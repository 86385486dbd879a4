import { z } from 'zod';

export const input = z.object({ providerId: z.string().min(1).max(64) });
export const output = z.object({
  ok: z.boolean(),
  /** Why the check failed: the credentials refused, the endpoint unreachable or silent, or another answer. */
  cause: z.enum(['refused', 'unreachable', 'timed_out', 'answered']).optional(),
  /** The status the endpoint answered with (refused, or another answer). */
  httpStatus: z.number().int().optional(),
  /** The cause in words (never the provider's free text, never a credential). */
  message: z.string(),
});
