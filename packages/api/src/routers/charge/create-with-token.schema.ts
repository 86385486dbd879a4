import { chargeOutput, tokenChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/charge/token', tags: ['Charge'], summary: 'Charge a payment token (consumes it)', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = tokenChargeInput;
export const output = chargeOutput;
