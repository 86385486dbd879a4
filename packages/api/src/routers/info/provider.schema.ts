import { z } from 'zod';
import { infoProviderOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info/providers/{providerId}',
    tags: ['Info'],
    summary: 'What a payment page needs to know about a provider',
    protect: true,
  },
};

export const input = z.object({ providerId: z.string().min(1) });
export const output = infoProviderOutput;
