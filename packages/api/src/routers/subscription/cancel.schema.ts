import { z } from 'zod';
import { subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/subscription/{subscriptionId}',
    tags: ['Subscription'],
    summary: 'Cancel a subscription (answers it, Cancelled)',
    protect: true,
  },
};

export const input = z.object({ subscriptionId: z.string().min(1) });
export const output = subscriptionOutput;
