import { z } from 'zod';
import { cardMethodFields, methodFields, paymentMethodOutput, setDefaultField } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/{customerId}/payment_method/card',
    tags: ['Customer'],
    summary: 'Add a card payment method to a customer',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ customerId: z.string().min(1), ...methodFields, ...cardMethodFields, ...setDefaultField });
export const output = paymentMethodOutput;
