import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { methodFields, tokenMethodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/token',
    tags: ['Customer'],
    summary: 'Add a customer with a payment token (used up)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...customerFields, ...methodFields, ...tokenMethodFields });
export const output = customerOutput;
