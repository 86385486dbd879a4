import { z } from 'zod';
import { paymentLinkOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/payment_link/{paymentLinkId}',
    tags: ['Payment link'],
    summary: 'Retrieve a payment link',
    protect: true,
  },
};

export const input = z.object({ paymentLinkId: z.string().min(1) });
export const output = paymentLinkOutput;
