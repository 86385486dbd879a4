import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { cardMethodFields, methodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/card',
    tags: ['Customer'],
    summary: 'Add a customer with a card (saved at the provider; vaulted with vaultCard)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...customerFields, ...methodFields, ...cardMethodFields });
export const output = customerOutput;
