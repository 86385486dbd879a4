import { z } from 'zod';

export const input = z.object({ days: z.number().int().min(1).max(90).default(14) });

const day = z.object({ date: z.string(), volume: z.number(), accepted: z.number().int(), failed: z.number().int() });

export const output = z.object({
  dates: z.array(z.string()),
  providers: z.array(z.object({ providerId: z.string(), name: z.string(), currency: z.string(), days: z.array(day) })),
});
