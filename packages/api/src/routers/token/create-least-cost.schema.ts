import { z } from 'zod';
import { amountInput, currencyInput } from '../../schemas/common';
import { newTokenOutput, tokenFields } from '../../schemas/token';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/token/card/least_cost',
    tags: ['Token'],
    summary: 'Turn a card into a payment token for the cheapest provider (public key)',
    description:
      'Authenticated by x-publickey, for browsers (CORS). The provider is the one a least-cost charge of this amount would try first. The token can be used once, within 15 minutes.',
  },
  idempotent: true,
};

export const input = z.object({ ...tokenFields, amount: amountInput, currency: currencyInput.optional() });
export const output = newTokenOutput;
