import { newPaymentLinkInput, paymentLinkOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_link',
    tags: ['Payment link'],
    summary: 'Create a payment link to a hosted payment page',
    protect: true,
  },
  idempotent: true,
};

export const input = newPaymentLinkInput;
export const output = paymentLinkOutput;
