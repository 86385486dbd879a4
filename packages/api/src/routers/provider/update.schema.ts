import { z } from 'zod';
import { providerChangesInput, providerOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/provider/{providerId}',
    tags: ['Provider'],
    summary: 'Change a provider (absent fields stay as they are)',
    protect: true,
  },
};

export const input = providerChangesInput.extend({ providerId: z.string().min(1) });
export const output = providerOutput;
