import { z } from 'zod';
import { bankAccountMethodFields, methodFields, paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/payment_method/bank_account', tags: ['PaymentMethod'], summary: 'Save a bank account', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({ ...methodFields, ...bankAccountMethodFields });
export const output = paymentMethodOutput;
