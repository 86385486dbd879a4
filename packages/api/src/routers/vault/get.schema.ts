import { z } from 'zod';
import { vaultWithPciOutput } from '../../schemas/vault';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/vault/{vaultId}', tags: ['Vault'], summary: 'Retrieve a vault item (card data masked)', protect: true },
};

export const input = z.object({ vaultId: z.string().min(1) });
export const output = vaultWithPciOutput;
