import { z } from 'zod';
import { booleanInput, dateRangeInput, pagingInput } from '../../schemas/common';
import { customerListOutput } from '../../schemas/customer';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/customer', tags: ['Customer'], summary: 'Search customers, newest first', protect: true },
};

export const input = z.object({
  reference: z.string().optional().meta({ description: 'Exact reference' }),
  email: z.string().optional().meta({ description: 'Exact email, any letter case' }),
  search: z.string().max(200).optional().meta({ description: 'Words found in the first name, last name or email' }),
  customerId: z.string().optional(),
  paymentMethodId: z.string().optional(),
  includeRemoved: booleanInput.optional().meta({ description: 'Also removed customers (default false)' }),
  sortBy: z
    .enum(['None', 'Date', 'Reference', 'Email', 'Name'])
    .optional()
    .meta({ description: 'Date (newest first, the default), Reference, Email, Name (last name, first name)' }),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = customerListOutput;
