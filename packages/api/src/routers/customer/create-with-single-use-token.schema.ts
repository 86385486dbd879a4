import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { methodFields, providerTokenFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/provider_single_use_token',
    tags: ['Customer'],
    summary: "Add a customer with a provider's single-use card token (exchanged for a reusable one)",
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...customerFields, ...methodFields, ...providerTokenFields });
export const output = customerOutput;
