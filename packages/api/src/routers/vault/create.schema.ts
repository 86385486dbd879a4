import { z } from 'zod';
import { cardInput } from '../../schemas/card';
import { uncoerced, wireDateInput } from '../../schemas/common';
import { vaultOutput } from '../../schemas/vault';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/vault', tags: ['Vault'], summary: 'Store a card in the vault', protect: true },
  idempotent: true,
};

export const input = z.object({
  cardNumber: cardInput.shape.cardNumber,
  ccv: cardInput.shape.ccv.meta({ description: 'Erased at the first payment with the card, or after a short delay' }),
  expireSeconds: uncoerced(z.number())
    .optional()
    .meta({ description: 'Seconds until the item expires (whole, at least 1); not with expireDate' }),
  expireDate: wireDateInput('InvalidExpireDateOrExpireSeconds')
    .optional()
    .meta({ description: 'When the item expires (future date-time); not with expireSeconds' }),
});
export const output = vaultOutput;
