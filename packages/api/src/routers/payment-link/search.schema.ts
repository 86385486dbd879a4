import { z } from 'zod';
import { dateRangeInput, pagingInput } from '../../schemas/common';
import { paymentLinkOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/payment_link', tags: ['Payment link'], summary: 'Search payment links, newest first', protect: true },
};

export const input = z.object({
  ...dateRangeInput,
  sortBy: z.enum(['None', 'Date', 'Title']).optional().meta({ description: 'Date (newest first, the default) or Title (A to Z)' }),
  ...pagingInput,
});
export const output = z.object({ paymentLinks: z.array(paymentLinkOutput), count: z.number().int() });
