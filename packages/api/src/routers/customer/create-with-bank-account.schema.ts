import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { bankAccountMethodFields, methodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/bank_account',
    tags: ['Customer'],
    summary: 'Add a customer with a bank account',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...customerFields, ...methodFields, ...bankAccountMethodFields });
export const output = customerOutput;
