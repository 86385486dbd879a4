import { z } from 'zod';
import { notFreeText } from '../../binding';
import { amountQuery, booleanInput, currencyInput, dateRangeInput, pagingInput } from '../../schemas/common';
import { chargeListOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/charge', tags: ['Charge'], summary: 'Search charges, newest first', protect: true },
};

/** Free text the extensions below match: bounded, so a search never carries a page of text to the index. */
const searchText = z.string().trim().min(1).max(200);

export const input = z.object({
  query: searchText.optional().meta({
    description:
      'Our extension. Every word matches one of: part of the reference or the payer’s email (any letter case), the card’s last four digits, the charge id, the provider’s charge id (docs/api.md#finding-a-charge)',
  }),
  reference: z.string().optional().meta({ description: 'Exact reference' }),
  referenceContains: searchText.optional().meta({ description: 'Our extension. Part of the reference, any letter case' }),
  email: searchText.optional().meta({ description: 'Our extension. Part of the payer’s email, any letter case' }),
  cardLast4: z
    .string()
    .regex(/^\d{4}$/, 'four digits')
    .optional()
    .meta({ description: 'Our extension. The card’s last four digits' }),
  paymentLinkId: z.string().optional().meta({ description: 'Our extension. Charges made on this payment link’s hosted page' }),
  providerId: z.string().optional(),
  amountGreaterThan: amountQuery.optional(),
  amountLessThan: amountQuery.optional(),
  customerId: z.string().optional(),
  status: z
    .enum(['PENDING', 'FAILED', 'SUCCESS', 'PARTIAL_REFUND', 'REFUND', 'PENDING_CHECKOUT', 'AUTHORISE', 'AUTHORISE_CANCELLED'])
    .optional(),
  awaitingAuthentication: booleanInput.optional().meta({
    description:
      'Our extension. true: only PENDING charges waiting for their payer’s 3-D Secure authentication (docs/three-d-secure.md); false: every other charge',
  }),
  paymentMethodId: z.string().optional(),
  paymentType: z.string().optional(),
  cardType: z.string().optional().meta({ description: 'Card scheme, e.g. VISA' }),
  currency: currencyInput.optional(),
  cardNumber: z
    .string()
    .register(notFreeText)
    .optional()
    .meta({ description: 'Leading digits (IIN), optionally the full number to match the last four too' }),
  cardholder: z.string().optional(),
  batchId: z.string().optional(),
  subscriptionId: z.string().optional(),
  sortBy: z
    .enum(['None', 'Date', 'Amount', 'Status', 'Reference'])
    .optional()
    .meta({ description: 'Date (newest first, the default), Amount (largest first), Status, Reference' }),
  ...dateRangeInput,
  ...pagingInput,
});
export const output = chargeListOutput;
