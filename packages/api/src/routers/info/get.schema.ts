import { z } from 'zod';
import { infoOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info',
    tags: ['Info'],
    summary: 'Countries, currencies and time zones the gateway knows',
    protect: true,
  },
};

export const input = z.object({});
export const output = infoOutput;
