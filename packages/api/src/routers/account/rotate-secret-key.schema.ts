import { z } from 'zod';

export const input = z.object({});
export const output = z.object({
  secretKey: z.string().meta({ description: 'Shown this once: only its hash is kept' }),
  secretKeyHint: z.string(),
});
