import { z } from 'zod';
import { providerTypesOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info/provider_types',
    tags: ['Info'],
    summary: 'The provider types the gateway can create: parameters, currencies, operations',
    protect: true,
  },
};

export const input = z.object({});
export const output = providerTypesOutput;
