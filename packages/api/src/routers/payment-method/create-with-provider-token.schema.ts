import { z } from 'zod';
import { cardMethodFields, methodFields, paymentMethodOutput, providerTokenFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_method/provider_token',
    tags: ['PaymentMethod'],
    summary: "Save a provider's reusable card token",
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...providerTokenFields, verify: cardMethodFields.verify });
export const output = paymentMethodOutput;
