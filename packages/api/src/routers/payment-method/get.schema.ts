import { z } from 'zod';
import { paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/payment_method/{paymentMethodId}',
    tags: ['PaymentMethod'],
    summary: 'Retrieve a payment method (removed ones too)',
    protect: true,
  },
};

export const input = z.object({ paymentMethodId: z.string().min(1) });
export const output = paymentMethodOutput;
