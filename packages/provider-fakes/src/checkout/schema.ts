import { z } from 'zod';

/**
 * The request bodies the fake Checkout.com takes, written from Checkout.com's API reference
 * (api-reference.checkout.com: "Request a payment or payout", "Capture a payment", "Void a
 * payment", "Refund a payment", "Reverse a payment", "Update an instrument"), since Checkout.com
 * publishes no machine-readable description the npm registry carries. Objects are strict: a field
 * the reference does not list for the call is a violation. docs/providers/checkout.md lists what
 * is covered.
 */

const reference = z.string().max(50);
const amount = z.number().int().min(0);
const currency = z.string().regex(/^[A-Z]{3}$/);
const month = z.number().int().min(1).max(12);
const year = z.number().int().min(2000).max(2099);

const cardSource = z.strictObject({
  type: z.literal('card'),
  number: z.string().regex(/^\d{12,19}$/),
  expiry_month: month,
  expiry_year: year,
  name: z.string().max(255).optional(),
  cvv: z
    .string()
    .regex(/^\d{3,4}$/)
    .optional(),
  stored: z.boolean().optional(),
});
const idSource = z.strictObject({
  type: z.literal('id'),
  id: z.string().regex(/^src_[a-z0-9]{26}$/),
  cvv: z
    .string()
    .regex(/^\d{3,4}$/)
    .optional(),
});
const tokenSource = z.strictObject({ type: z.literal('token'), token: z.string().regex(/^tok_[a-z0-9]{26}$/) });

const url = z.url().max(1024);

export const paymentRequest = z
  .strictObject({
    source: z.discriminatedUnion('type', [cardSource, idSource, tokenSource]),
    amount: amount.optional(),
    currency,
    payment_type: z.enum(['Regular', 'Recurring', 'MOTO', 'Installment', 'Unscheduled']).optional(),
    merchant_initiated: z.boolean().optional(),
    previous_payment_id: z
      .string()
      .regex(/^pay_[a-z0-9]{26}$/)
      .optional(),
    reference: reference.optional(),
    description: z.string().max(100).optional(),
    capture: z.boolean().optional(),
    processing_channel_id: z.string().regex(/^pc_[a-z0-9]+$/),
    billing_descriptor: z.strictObject({ name: z.string().max(25), city: z.string().min(1).max(13) }).optional(),
    '3ds': z
      .strictObject({
        enabled: z.boolean(),
        challenge_indicator: z
          .enum(['no_preference', 'no_challenge_requested', 'challenge_requested', 'challenge_requested_mandate'])
          .optional(),
      })
      .optional(),
    success_url: url.optional(),
    failure_url: url.optional(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .refine((body) => !body.merchant_initiated || body.source.type === 'id', {
    message: 'a merchant-initiated payment is made on stored details',
  });

export const captureRequest = z.strictObject({
  amount: amount.optional(),
  reference: reference.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export const voidRequest = z.strictObject({ reference: reference.optional(), metadata: z.record(z.string(), z.unknown()).optional() });
export const refundRequest = captureRequest;
export const reversalRequest = voidRequest;
export const instrumentUpdate = z.strictObject({
  expiry_month: month.optional(),
  expiry_year: year.optional(),
  name: z.string().max(255).optional(),
});

/** The headers every call carries: the secret key, and on money-moving calls an idempotency key Checkout.com takes. */
export const idempotencyKey = z.string().min(1).max(64);

/** What a request problem reads as, for the violations list. */
export function problemsOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
}
