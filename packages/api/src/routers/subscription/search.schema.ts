import { SUBSCRIPTION_STATUSES } from '@gateway/core';
import { z } from 'zod';
import { amountQuery, currencyInput, dateRangeInput, pagingInput } from '../../schemas/common';
import { subscriptionListOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/subscription', tags: ['Subscription'], summary: 'Search subscriptions, newest first', protect: true },
};

export const input = z.object({
  amountGreaterThan: amountQuery.optional(),
  amountLessThan: amountQuery.optional(),
  currency: currencyInput.optional(),
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  sortBy: z
    .enum(['None', 'Date', 'Status', 'Currency'])
    .optional()
    .meta({ description: 'Date (newest first, the default), Status (Complete, Active, Cancelled, Suspended) or Currency' }),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = subscriptionListOutput;
