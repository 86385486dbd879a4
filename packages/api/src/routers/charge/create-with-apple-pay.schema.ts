import { chargeOutput, walletChargeInput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/charge/token/apple',
    tags: ['Charge'],
    summary: 'Charge an Apple Pay token (public key; optional providerId header)',
    description: 'Authenticated by x-publickey. The simulated acquirer accepts the test token format of docs/test-cards.md.',
  },
  successStatus: 201,
  idempotent: true,
};

export const input = walletChargeInput;
export const output = chargeOutput;
