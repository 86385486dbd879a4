import { z } from 'zod';
import { batchOutput } from '../../schemas/batch';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/batch/{batchId}',
    tags: ['Batch'],
    summary: 'Retrieve a batch with its results CSV',
    protect: true,
  },
};

export const input = z.object({ batchId: z.string().min(1) });
export const output = batchOutput;
