import { z } from 'zod';
import { providerOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/provider/{providerId}',
    tags: ['Provider'],
    summary: 'Remove a provider: it takes no more charges',
    protect: true,
  },
};

export const input = z.object({ providerId: z.string().min(1) });
export const output = providerOutput;
