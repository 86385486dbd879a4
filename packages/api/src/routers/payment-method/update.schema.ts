import { z } from 'zod';
import { cardInput } from '../../schemas/card';
import { metadataInput } from '../../schemas/common';
import { paymentMethodOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/payment_method/{paymentMethodId}',
    tags: ['PaymentMethod'],
    summary: "Update a card's expiry date or cardholder (at the provider too)",
    protect: true,
  },
};

export const input = z.object({
  paymentMethodId: z.string().min(1),
  card: z.object({ expiryDate: cardInput.shape.expiryDate.optional(), cardholder: cardInput.shape.cardholder }).optional(),
  metadata: metadataInput.optional().meta({ description: 'Replaces the metadata' }),
});
export const output = paymentMethodOutput;
