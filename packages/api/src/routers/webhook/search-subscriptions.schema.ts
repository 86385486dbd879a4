import { z } from 'zod';
import { dateRangeInput, pagingInput } from '../../schemas/common';
import { webhookSubscriptionOutput, webhookTypeSchema } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/webhook/subscription',
    tags: ['Webhook'],
    summary: 'Search active webhook subscriptions, newest first',
    protect: true,
  },
};

const sort = z.enum(['None', 'Date']).optional().meta({ description: 'Both mean newest first (any case: NONE, DATE)' });

export const input = z.object({
  id: z.string().optional().meta({ description: 'Exact webhookSubscriptionId' }),
  type: webhookTypeSchema.optional().meta({ description: 'Subscriptions that include this type' }),
  ...dateRangeInput,
  sort: sort.meta({ description: 'Java client: NONE or DATE, both newest first' }),
  sortBy: sort,
  ...pagingInput,
});
export const output = z
  .object({ webhookSubscriptions: z.array(webhookSubscriptionOutput), count: z.number().int() })
  .meta({ id: 'WebhookSubscriptionList' });
