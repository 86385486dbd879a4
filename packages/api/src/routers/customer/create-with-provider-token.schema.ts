import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { cardMethodFields, methodFields, providerTokenFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/customer/provider_token',
    tags: ['Customer'],
    summary: "Add a customer with a provider's reusable card token",
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...customerFields, ...methodFields, ...providerTokenFields, verify: cardMethodFields.verify });
export const output = customerOutput;
