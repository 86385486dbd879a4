import { z } from 'zod';
import { infoProviderOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info/providers/token/{token}',
    tags: ['Info'],
    summary: 'What a payment page needs to know about the provider of a payment token',
    protect: true,
  },
};

export const input = z.object({ token: z.string().min(1) });
export const output = infoProviderOutput;
