import { z } from 'zod';
import { batchStatusOutput } from '../../schemas/batch';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/batch/{batchId}/status',
    tags: ['Batch'],
    summary: 'Retrieve the status and progress of a batch, without its results',
    protect: true,
  },
};

export const input = z.object({ batchId: z.string().min(1) });
export const output = batchStatusOutput;
