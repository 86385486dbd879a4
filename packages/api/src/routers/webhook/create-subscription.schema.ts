import { z } from 'zod';
import { webhookInput } from '../../schemas/common';
import { webhookSubscriptionOutput, webhookTypeSchema } from '../../schemas/webhook';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/webhook/subscription',
    tags: ['Webhook'],
    summary: 'Subscribe a URL to the events of some types (a non-public address is refused: 90)',
    protect: true,
  },
  idempotent: true,
};

export const input = z.object({
  url: webhookInput.shape.url,
  authorization: webhookInput.shape.authorization.meta({
    description: 'Sent as the Authorization header of every delivery; never answered',
  }),
  types: z.array(webhookTypeSchema).min(1).max(5),
});
export const output = webhookSubscriptionOutput;
