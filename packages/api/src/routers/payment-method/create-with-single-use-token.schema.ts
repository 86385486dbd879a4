import { z } from 'zod';
import { methodFields, paymentMethodOutput, providerTokenFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_method/provider_single_use_token',
    tags: ['PaymentMethod'],
    summary: "Save a provider's single-use card token (exchanged for a reusable one)",
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...providerTokenFields });
export const output = paymentMethodOutput;
