import { z } from 'zod';

export const input = z.object({ chargeId: z.string().min(1).max(64) });

export const output = z.object({
  /** When the charge started waiting for its payer's 3-D Secure authentication; null when it does not wait. */
  waitingSince: z.string().nullable(),
  /** When the gateway gives up on it (GATEWAY_THREEDS_TIMEOUT_SECONDS later); null when it does not wait. */
  givesUpAt: z.string().nullable(),
});
