import { z } from 'zod';
import { webhookSubscriptionOutput } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/webhook/subscription/{webhookSubscriptionId}',
    tags: ['Webhook'],
    summary: 'Remove a webhook subscription (soft); its pending deliveries stop',
    protect: true,
  },
};

export const input = z.object({ webhookSubscriptionId: z.string().min(1) });
export const output = webhookSubscriptionOutput;
