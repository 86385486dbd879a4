import { z } from 'zod';
import { methodFields, payToFields, paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/payment_method/payto', tags: ['PaymentMethod'], summary: 'Save a PayTo agreement', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...payToFields });
export const output = paymentMethodOutput;
