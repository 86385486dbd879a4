import { z } from 'zod';
import { currencyInput } from '../../schemas/common';
import { infoProvidersOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/info/providers',
    tags: ['Info'],
    summary: 'Which kinds of payment the account can take',
    description: 'Only card providers exist in this gateway; `amount` is accepted and ignored (no provider limits amounts).',
    protect: true,
  },
};

export const input = z.object({
  currency: currencyInput.optional().meta({ description: 'Count only providers that take this currency' }),
  cardProviderId: z.string().optional().meta({ description: 'Count only this provider' }),
});
export const output = infoProvidersOutput;
