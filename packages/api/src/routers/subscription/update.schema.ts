import { subscriptionChangesInput, subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/subscription/{subscriptionId}',
    tags: ['Subscription'],
    summary: 'Change a subscription',
    description:
      'endAfter, retry and webhook are replaced (absent: none); amount, currency, interval, frequency and metadata absent (amount and frequency also 0) stay as they are. A new currency comes with an amount in it, and must be one the provider of the payment method takes (else 400 now, not at the next payment).',
    protect: true,
  },
};

export const input = subscriptionChangesInput;
export const output = subscriptionOutput;
