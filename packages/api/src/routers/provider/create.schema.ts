import { newProviderInput, providerOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/provider',
    tags: ['Provider'],
    summary: 'Add a payment provider',
    description:
      'authenticationParameters are stored encrypted and answered masked; costData is the fee schedule least-cost routing ranks by.',
    protect: true,
  },
  idempotent: true,
};

export const input = newProviderInput;
export const output = providerOutput;
