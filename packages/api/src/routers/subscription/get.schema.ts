import { z } from 'zod';
import { subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/subscription/{subscriptionId}',
    tags: ['Subscription'],
    summary: 'Retrieve a subscription',
    protect: true,
  },
};

export const input = z.object({ subscriptionId: z.string().min(1) });
export const output = subscriptionOutput;
