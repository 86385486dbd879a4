import { z } from 'zod';
import { paymentLinkPaymentOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/payment_link/{paymentLinkId}/payment/{chargeId}',
    tags: ['Payment link'],
    summary: 'Read a payment of a link (public key; the hosted page calls it when the payer comes back from 3-D Secure)',
    description:
      'Our extension. Answers as POST /payment_link/{paymentLinkId}/pay did, with the charge as it is now: the hosted page shows this, never the status in its own query. Only a charge of this link (404 otherwise).',
  },
};

export const input = z.object({
  paymentLinkId: z.string().min(1).max(64),
  chargeId: z.string().min(1).max(64).meta({ description: 'chargeId from the pay answer, or from the return of 3-D Secure' }),
});
export const output = paymentLinkPaymentOutput;
