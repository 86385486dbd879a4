import { chargeOutput, customerChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/charge/customer',
    tags: ['Charge'],
    summary: 'Charge the default payment method of a customer',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = customerChargeInput;
export const output = chargeOutput;
