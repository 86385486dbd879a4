import { z } from 'zod';

export const input = z.void();
export const output = z.object({
  signingKey: z.string().meta({ description: 'Verifies X-Payfurl-Signature: HMAC-SHA256 keyed with this text (not decoded)' }),
});
