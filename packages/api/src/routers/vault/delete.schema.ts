import { z } from 'zod';
import { vaultOutput } from '../../schemas/vault';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/vault/{vaultId}',
    tags: ['Vault'],
    summary: 'Delete a vault item and erase its card data',
    protect: true,
  },
};

export const input = z.object({ vaultId: z.string().min(1) });
export const output = vaultOutput;
