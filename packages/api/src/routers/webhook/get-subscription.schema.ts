import { z } from 'zod';
import { webhookSubscriptionOutput } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/webhook/subscription/{webhookSubscriptionId}',
    tags: ['Webhook'],
    summary: 'Retrieve a webhook subscription (removed ones too)',
    protect: true,
  },
};

export const input = z.object({ webhookSubscriptionId: z.string().min(1) });
export const output = webhookSubscriptionOutput;
