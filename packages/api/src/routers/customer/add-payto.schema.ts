import { z } from 'zod';
import { methodFields, payToFields, paymentMethodOutput, setDefaultField } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/{customerId}/payment_method/payto',
    tags: ['Customer'],
    summary: 'Add a PayTo agreement to a customer',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ customerId: z.string().min(1), ...methodFields, ...payToFields, ...setDefaultField });
export const output = paymentMethodOutput;
