import { newSubscriptionInput, subscriptionOutput } from '../../schemas/subscription';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/subscription/payment_method',
    tags: ['Subscription'],
    summary: 'Bill a saved payment method on a schedule',
    description: 'Answers the subscription, Active; the payments are made in the background (docs/api.md#subscriptions).',
    protect: true,
  },
  idempotent: true,
};

export const input = newSubscriptionInput;
export const output = subscriptionOutput;
