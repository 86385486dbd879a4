import { z } from 'zod';
import { cardMethodFields, methodFields, paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_method/card',
    tags: ['PaymentMethod'],
    summary: 'Save a card (at the provider; vaulted with vaultCard)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...cardMethodFields });
export const output = paymentMethodOutput;
