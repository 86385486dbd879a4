import { chargeOutput, bankAccountChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/charge/bank_account',
    tags: ['Charge'],
    summary: 'Debit a bank account (PENDING until it settles)',
    protect: true,
  },
  successStatus: 201,
  idempotent: true,
};

export const input = bankAccountChargeInput;
export const output = chargeOutput;
