import { chargeOutput, paymentMethodChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/charge/payment_method',
    tags: ['Charge'],
    summary: 'Charge a saved payment method (its fallback after a retryable failure)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = paymentMethodChargeInput;
export const output = chargeOutput;
