import { z } from 'zod';
import { booleanInput } from '../../schemas/common';
import { paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/payment_method/{paymentMethodId}',
    tags: ['PaymentMethod'],
    summary: 'Remove a payment method (soft: it can still be retrieved)',
    protect: true,
  },
};

export const input = z.object({
  paymentMethodId: z.string().min(1),
  gatewayDelete: booleanInput.optional().meta({ description: 'Also delete the saved card at the provider (default true)' }),
});
export const output = paymentMethodOutput;
