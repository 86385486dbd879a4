import { z } from 'zod';
import { methodFields, paymentMethodOutput, vaultMethodFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_method/vault',
    tags: ['PaymentMethod'],
    summary: "Save a vaulted payment method's card at another provider",
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...vaultMethodFields });
export const output = paymentMethodOutput;
