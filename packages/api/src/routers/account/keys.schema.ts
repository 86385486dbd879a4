import { z } from 'zod';

export const input = z.void();
export const output = z.object({
  accountName: z.string(),
  publicKey: z.string(),
  secretKeyHint: z.string().meta({ description: 'Last four characters of the secret key' }),
});
