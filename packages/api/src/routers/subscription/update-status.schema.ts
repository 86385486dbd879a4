import { SUBSCRIPTION_STATUSES } from '@gateway/core';
import { z } from 'zod';
import { subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/subscription/{subscriptionId}/status',
    tags: ['Subscription'],
    summary: 'Suspend, resume or cancel a subscription',
    protect: true,
  },
};

export const input = z.object({
  subscriptionId: z.string().min(1),
  status: z
    .enum(SUBSCRIPTION_STATUSES)
    .meta({ description: 'Active, Suspended or Cancelled, in any letter case, or the .NET client’s 1, 3 or 2' }),
});
export const output = subscriptionOutput;
