import { z } from 'zod';
import { providerOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info/default_fallback_provider',
    tags: ['Info'],
    summary: "The account's default card provider (its oldest active one)",
    protect: true,
  },
};

export const input = z.object({});
export const output = providerOutput;
