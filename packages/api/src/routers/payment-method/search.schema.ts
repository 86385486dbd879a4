import { z } from 'zod';
import { booleanInput, dateRangeInput, pagingInput } from '../../schemas/common';
import { paymentMethodListOutput } from '../../schemas/payment-method';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/payment_method',
    tags: ['PaymentMethod'],
    summary: 'Search payment methods, newest first',
    protect: true,
  },
};

export const input = z.object({
  providerId: z.string().optional(),
  customerId: z.string().optional(),
  paymentType: z.string().optional().meta({ description: 'CARD, BANK_ACCOUNT or PAYTO' }),
  cardType: z.string().optional().meta({ description: 'Card scheme, e.g. VISA' }),
  search: z.string().max(200).optional().meta({ description: 'Words found in the cardholder, email or bank account name' }),
  includeRemoved: booleanInput.optional().meta({ description: 'Also removed payment methods (default false)' }),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = paymentMethodListOutput;
