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
  threeDSServerTransID: z.string().max(100).optional(),
  externalThreeDsData: z.record(z.string(), z.string()).optional(),
});

export type CardInput = z.infer<typeof cardInput>;
