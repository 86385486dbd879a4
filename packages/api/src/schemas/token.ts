import { z } from 'zod';
import { cardInput } from './card';
import { cardOutput, chargeFields, providerSummaryOutput } from './charge';
import { dateOutput, nullableDateOutput } from './common';
import type { Shape } from './payment-method';

/** What a browser sends to turn a card into a payment token. */
export const tokenFields = {
  paymentInformation: cardInput.optional().meta({ description: 'The card; required (81 when absent)' }),
  ip: chargeFields.ip,
  metadata: chargeFields.metadata,
};
export type NewToken = Shape<typeof tokenFields>;

const nullableString = z.string().nullable();

/** TokenData. The card is masked; the card itself waits in the vault until the token is used. */
export const tokenOutput = z
  .object({
    tokenId: z.string().meta({ example: '65a1f0c2d3e4b5a697887766' }),
    gatewayTokenId: z.null(),
    accountId: z.string(),
    userId: z.null(),
    card: cardOutput.nullable(),
    provider: providerSummaryOutput,
    dateAdded: dateOutput,
    dateUsed: nullableDateOutput.meta({ description: 'When a charge, customer or payment method used it up' }),
    payToStatus: z.null(),
    metadata: z.record(z.string(), z.string()).nullable(),
    clickToPay: z.null(),
  })
  .meta({ id: 'Token' });

export type TokenView = z.infer<typeof tokenOutput>;

/** A new token also tells until when it can be used. */
export const newTokenOutput = tokenOutput.extend({ expiresAt: dateOutput }).meta({ id: 'NewToken' });

export const tokenListOutput = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), tokens: z.array(tokenOutput) })
  .meta({ id: 'TokenList' });
