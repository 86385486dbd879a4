import { z } from 'zod';
import { newTokenOutput, tokenFields } from '../../schemas/token';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/token/card',
    tags: ['Token'],
    summary: 'Turn a card into a payment token (public key)',
    description:
      'Authenticated by x-publickey, for browsers (CORS). The provider is providerId (body) or the ProviderId header, else the oldest card provider. The token can be used once, within 15 minutes.',
  },
  idempotent: true,
};

export const input = z.object({ ...tokenFields, providerId: z.string().min(1).max(64).optional() });
export const output = newTokenOutput;
