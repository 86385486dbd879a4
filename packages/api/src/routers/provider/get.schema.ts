import { z } from 'zod';
import { providerOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/provider/{providerId}', tags: ['Provider'], summary: 'Retrieve a provider', protect: true },
};

export const input = z.object({ providerId: z.string().min(1) });
export const output = providerOutput;
