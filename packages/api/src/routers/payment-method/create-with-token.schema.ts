import { z } from 'zod';
import { methodFields, paymentMethodOutput, tokenMethodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_method/token',
    tags: ['PaymentMethod'],
    summary: 'Save a payment method from a payment token (used up)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...tokenMethodFields });
export const output = paymentMethodOutput;
