import { z } from 'zod';
import { paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/customer/{customerId}/payment_method',
    tags: ['Customer'],
    summary: "The customer's payment methods that are not removed, newest first",
    protect: true,
  },
};

export const input = z.object({ customerId: z.string().min(1) });
export const output = z.array(paymentMethodOutput);
