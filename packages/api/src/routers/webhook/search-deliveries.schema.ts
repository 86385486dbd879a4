import { z } from 'zod';
import { dateRangeInput, pagingInput } from '../../schemas/common';
import { WEBHOOK_DELIVERY_STATUSES, webhookDeliveryOutput, webhookTypeSchema } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/webhook/delivery',
    tags: ['Webhook'],
    summary: 'Search webhook deliveries, newest first (our extension)',
    protect: true,
  },
};

export const input = z.object({
  resourceId: z.string().optional().meta({ description: 'Id of the charge, customer… the event is about' }),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  type: webhookTypeSchema.optional(),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), deliveries: z.array(webhookDeliveryOutput) })
  .meta({ id: 'WebhookDeliveryList' });
