import { z } from 'zod';
import { methodFields, paymentMethodOutput, setDefaultField, tokenMethodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/{customerId}/payment_method/token',
    tags: ['Customer'],
    summary: 'Add a payment method to a customer from a payment token',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ customerId: z.string().min(1), ...methodFields, ...tokenMethodFields, ...setDefaultField });
export const output = paymentMethodOutput;
