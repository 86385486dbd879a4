import { z } from 'zod';
import { bankAccountMethodFields, methodFields, paymentMethodOutput, setDefaultField } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/{customerId}/bank_account',
    tags: ['Customer'],
    summary: 'Add a bank account to a customer',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ customerId: z.string().min(1), ...methodFields, ...bankAccountMethodFields, ...setDefaultField });
export const output = paymentMethodOutput;
