import { chargeOutput, networkTokenChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/charge/network_token', tags: ['Charge'], summary: 'Charge a network token', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = networkTokenChargeInput;
export const output = chargeOutput;
