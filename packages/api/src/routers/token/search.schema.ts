import { z } from 'zod';
import { dateRangeInput, pagingInput } from '../../schemas/common';
import { tokenListOutput } from '../../schemas/token';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/token', tags: ['Token'], summary: 'Search payment tokens, newest first', protect: true },
};

export const input = z.object({
  status: z.enum(['ACTIVE', 'USED', 'EXPIRED']).optional().meta({ description: 'ACTIVE (usable), USED or EXPIRED' }),
  providerId: z.string().optional(),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = tokenListOutput;
