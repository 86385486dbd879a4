import { z } from 'zod';
import { publicPaymentLinkOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/payment_link/{paymentLinkId}/public',
    tags: ['Payment link'],
    summary: 'What the hosted payment page shows of a link (no key needed)',
  },
};

export const input = z.object({ paymentLinkId: z.string().min(1).max(64) });
export const output = publicPaymentLinkOutput;
