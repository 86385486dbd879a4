import { z } from 'zod';
import { dateOutput, nullableDateOutput } from './common';

/** VaultData: what the gateway tells about a vault item. Never clear card data. */
export const vaultOutput = z
  .object({
    vaultId: z.string(),
    createdDate: dateOutput,
    expireDate: nullableDateOutput,
    maskedCardNumber: z.string().meta({ description: 'First 6 and last 4 digits', example: '411111******1111' }),
    hasCvv: z.boolean().meta({ description: 'Whether the vault still holds a CCV for this card' }),
  })
  .meta({ id: 'VaultData' });

export type VaultView = z.infer<typeof vaultOutput>;

/** VaultDataWithPci, as the client SDKs read it; card data stays masked (docs/decisions.md). */
export const vaultWithPciOutput = vaultOutput
  .extend({
    cardNumber: z.string().meta({ description: 'Masked, as maskedCardNumber', example: '411111******1111' }),
    ccv: z.null().meta({ description: 'Always null: a CCV never leaves the vault in an answer' }),
  })
  .meta({ id: 'VaultDataWithPci' });
