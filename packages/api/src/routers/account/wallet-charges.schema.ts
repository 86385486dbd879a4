import { z } from 'zod';

/** Wallet charges made with the public key (POST /charge/token/apple): taken or not, and their cap. */
export const walletCharges = z.object({
  enabled: z.boolean(),
  maxAmount: z.number().int().min(1).max(1_000_000_000).nullable().meta({
    description: 'Largest amount, in whole Australian dollars (other currencies converted with GATEWAY_EXCHANGE_RATES); null: no cap',
  }),
});
