import { z } from 'zod';
import { webhookEventOutput } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/webhook/event/{messageId}',
    tags: ['Webhook'],
    summary: 'Delivery log of one event: its data, deliveries and every attempt (our extension)',
    protect: true,
  },
};

export const input = z.object({ messageId: z.string().min(1) });
export const output = webhookEventOutput;
