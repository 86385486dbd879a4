import { z } from 'zod';

export const input = z.void();
export const output = z.array(
  z.object({ providerId: z.string(), minMs: z.number().int(), maxMs: z.number().int(), timeoutMs: z.number().int() }),
);
