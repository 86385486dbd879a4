import { CALLS_TO_ACTION, checkImageDataUri, IMAGE_PROBLEMS, PAYMENT_TYPES } from '@gateway/core';
import { z } from 'zod';
import { notFreeText } from '../binding';
import { amountInput, booleanInput, currencyInput, dateOutput, metadataInput, uncoerced } from './common';

const imageInput = z
  .string()
  .superRefine((value, ctx) => {
    const problem = checkImageDataUri(value);
    if (problem) ctx.addIssue({ code: 'custom', message: IMAGE_PROBLEMS[problem] });
  })
  .meta({
    description: 'Base64 data URI of a PNG, JPEG, GIF or WebP image, at most 512 KB',
    example: 'data:image/png;base64,iVBORw0KGgo…',
  })
  .register(notFreeText);

/** The body of POST /payment_link. */
export const newPaymentLinkInput = z.object({
  title: z.string().trim().min(1).max(200),
  amount: amountInput,
  currency: currencyInput.optional().meta({ description: "The account's default currency when absent" }),
  allowedPaymentTypes: z
    .array(z.enum(PAYMENT_TYPES))
    .max(PAYMENT_TYPES.length)
    .optional()
    .meta({ description: 'Payment types offered on the hosted page (default: card); only card can be taken so far' }),
  description: z.string().max(2000).optional(),
  image: imageInput.optional(),
  confirmationMessage: z.string().max(1000).optional().meta({ description: 'Shown to the payer after the payment' }),
  redirectUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional()
    .meta({ description: 'Where the payer goes after the payment' }),
  callToAction: z
    .enum(CALLS_TO_ACTION)
    .optional()
    .meta({ description: 'Text of the payment button (the .NET client sends 0 or 1); default Pay' }),
  limitPayments: uncoerced(z.number().int().min(1).max(1_000_000_000)).optional().meta({ description: 'Maximum number of payments' }),
  askEmail: booleanInput.optional().meta({
    description: 'Our extension. The hosted page asks the payer for their email (required), kept on the charge; default false',
  }),
  invoiceId: z.string().max(100).optional(),
  metadata: metadataInput.optional(),
});
export type NewPaymentLink = z.infer<typeof newPaymentLinkInput>;

const nullableString = z.string().nullable();

export const paymentLinkOutput = z.object({
  url: z.string().meta({ description: 'The hosted payment page' }),
  paymentLinkId: z.string(),
  dateAdded: dateOutput,
  accountId: z.string(),
  publicKey: z.string(),
  title: nullableString,
  amount: z.number(),
  currency: z.string(),
  allowedPaymentTypes: z.array(z.string()),
  description: nullableString,
  image: nullableString,
  confirmationMessage: nullableString,
  redirectUrl: nullableString,
  callToAction: z.enum(CALLS_TO_ACTION),
  limitPayments: z.number().int().nullable(),
  countPayments: z.number().int(),
  askEmail: z.boolean().meta({ description: 'Our extension: the hosted page asks the payer for their email' }),
  invoiceId: nullableString,
  metadata: z.record(z.string(), z.string()).nullable(),
});
export type PaymentLinkView = z.infer<typeof paymentLinkOutput>;

/** What the hosted page may know of a link before the payer pays: nothing of the merchant's own. */
export const publicPaymentLinkOutput = paymentLinkOutput
  .pick({
    paymentLinkId: true,
    title: true,
    description: true,
    image: true,
    amount: true,
    currency: true,
    callToAction: true,
    publicKey: true,
    askEmail: true,
  })
  .extend({
    merchantName: z.string().meta({ description: "Our extension: the account's name, shown to the payer as who they pay" }),
    paymentTypes: z.array(z.string()).meta({ description: 'Allowed payment types the hosted page can take' }),
    soldOut: z.boolean().meta({ description: 'The link has taken its limit of payments' }),
  });
export type PublicPaymentLinkView = z.infer<typeof publicPaymentLinkOutput>;

/** The answer to a payment on the hosted page, and to reading it again. */
export const paymentLinkPaymentOutput = z.object({
  chargeId: z.string(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  confirmationMessage: nullableString,
  redirectUrl: nullableString,
  threeDsRedirectUrl: nullableString.meta({
    description: 'While PENDING for 3-D Secure: where to send the payer’s browser (same window) to authenticate with their bank',
  }),
  failureReason: nullableString.meta({
    description: 'When FAILED: why, in words the payer may read (a decline, or their bank’s authentication failed or timed out)',
  }),
  // The payer's receipt (our extension): what they paid, when, with which card, and what to quote.
  dateAdded: dateOutput.meta({ description: 'When the payment was made' }),
  reference: nullableString.meta({
    description: "The charge's reference, else the link's invoiceId: the merchant's reference for the payment",
  }),
  cardNumber: nullableString.meta({ description: 'The card paid with, masked: first 6 and last 4 digits', example: '424242******4242' }),
  cardType: nullableString.meta({ description: 'Its scheme', example: 'VISA' }),
});
export type PaymentLinkPayment = z.infer<typeof paymentLinkPaymentOutput>;
