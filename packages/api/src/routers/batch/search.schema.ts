import { z } from 'zod';
import { dateRangeInput, pagingInput } from '../../schemas/common';
import { batchListOutput } from '../../schemas/batch';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/batch', tags: ['Batch'], summary: 'Search batches, newest first', protect: true },
};

export const input = z.object({
  description: z.string().optional().meta({ description: 'Exact description' }),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = batchListOutput;
