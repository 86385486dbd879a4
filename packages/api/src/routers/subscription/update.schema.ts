import { subscriptionChangesInput, subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/subscription/{subscriptionId}',
    tags: ['Subscription'],
    summary: 'Change a subscription',
    description:
      'endAfter, retry and webhook are replaced (absent: none); amount, interval, frequency and metadata absent (amount and frequency also 0) stay as they are.',
    protect: true,
  },
};

export const input = subscriptionChangesInput;
export const output = subscriptionOutput;
