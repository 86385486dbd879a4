import { isValidCardNumber, isValidCcv, normaliseCardNumber, parseExpiry } from '@gateway/core';
import { z } from 'zod';
import { notFreeText } from '../binding';
import { issueParams } from '../errors';

/** CardRequestInformation. Card data never appears in an error message or detail. */
export const cardInput = z.object({
  cardNumber: z
    .string()
    .refine(
      (n) => {
        const digits = normaliseCardNumber(n);
        return digits !== undefined && isValidCardNumber(digits);
      },
      { message: 'Invalid Card Number', ...issueParams('InvalidCardNumber') },
    )
    .transform((n) => normaliseCardNumber(n) ?? n)
    .meta({ example: '4111111111111111' })
    .register(notFreeText),
  expiryDate: z
    .string()
    .refine((e) => parseExpiry(e) !== undefined, { message: 'Expiry date must be MM/YY', ...issueParams('InvalidExpiryDate') })
    .meta({ example: '10/30' }),
  ccv: z
    .string()
    .refine(isValidCcv, { message: 'CCV must be 3 or 4 digits', ...issueParams('InvalidCcv') })
    .optional(),
  cardholder: z.string().max(100).optional(),
  // The browser-side 3-D Secure server flow it belongs to is not built: refused with 59, never ignored.
  threeDSServerTransID: z
    .string()
    .refine(() => false, { message: 'threeDSServerTransID is not supported yet', ...issueParams('InvalidThreeDSServerTransID') })
    .optional(),
  // Only a charge takes it (cardChargeInput): a card stored or tokenised never drops it silently.
  externalThreeDsData: z.never({ error: 'Only a charge takes an authentication run elsewhere (POST /charge/card)' }).optional(),
});

/** An authentication the merchant ran with a 3-D Secure server of its own (docs/three-d-secure.md). */
export const externalThreeDsInput = z
  .object({
    eci: z.string().regex(/^\d{2}$/, 'Two digits'),
    authenticationValue: z.string().regex(/^[A-Za-z0-9+/]{20,64}={0,2}$/, 'The CAVV, base64'),
    dsTransID: z.uuid('A UUID'),
    threeDsVersion: z.string().regex(/^2\.\d\.\d$/, 'Like 2.2.0'),
    transStatus: z.enum(['Y', 'A', 'N', 'R', 'U']).optional(),
  })
  .meta({ description: 'An authentication the merchant ran with a 3-D Secure server of its own, passed to the provider' });

/** The card of a charge: it may carry an authentication the merchant ran elsewhere. */
export const chargeCardInput = cardInput.extend({ externalThreeDsData: externalThreeDsInput.optional() });

export type CardInput = z.infer<typeof cardInput>;
