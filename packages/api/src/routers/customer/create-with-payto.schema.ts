import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import { methodFields, payToFields } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/customer/payto', tags: ['Customer'], summary: 'Add a customer with a PayTo agreement', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = z.object({
  ...customerFields,
  metadata: methodFields.metadata,
  webhook: methodFields.webhook,
  payToAgreement: z.object({ ...payToFields, ...methodFields }),
});
export const output = customerOutput;
