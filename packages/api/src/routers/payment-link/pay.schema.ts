import { z } from 'zod';
import { browserInfoInput } from '../../schemas/charge';
import { paymentLinkPaymentOutput } from '../../schemas/payment-link';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/payment_link/{paymentLinkId}/pay',
    tags: ['Payment link'],
    summary: 'Pay a payment link with a card token (public key; the hosted page calls it)',
    description:
      'Charges the token for the link’s amount and currency. Send an Idempotency-Key: a repeated click charges once. A card that needs 3-D Secure answers PENDING with threeDsRedirectUrl: send the payer there (same window); their bank sends them back to the link’s hosted page with chargeId and status in its query, to be confirmed with GET /payment_link/{paymentLinkId}/payment/{chargeId}.',
  },
  idempotent: true,
};

export const input = z.object({
  paymentLinkId: z.string().min(1).max(64),
  token: z.string().min(1).max(64).meta({ description: 'tokenId from POST /token/card' }),
  browserInfo: browserInfoInput,
  email: z.email().max(254).optional().meta({
    description: 'Our extension. The payer’s email, kept on the charge: required by a link that asks for it (askEmail)',
  }),
});
export const output = paymentLinkPaymentOutput;
