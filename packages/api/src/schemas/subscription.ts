import { BILLING_INTERVALS, RETRY_INTERVALS, SUBSCRIPTION_STATUSES } from '@gateway/core';
import { z } from 'zod';
import { amountInput, currencyInput, dateInput, dateOutput, metadataInput, nullableDateOutput, uncoerced, webhookInput } from './common';

// Whole numbers of subscriptions: the .NET client sends 0 for those it was not given, so 0 means absent.
const wholeNumber = (max: number) => uncoerced(z.number().int().min(0).max(max));

export const endAfterInput = z.object({
  count: wholeNumber(1_000_000).optional().meta({ description: 'Stop after this many successful payments' }),
  amount: amountInput.optional().meta({ description: 'Stop when the payments add up to this; the last one is reduced to what remains' }),
  date: dateInput.optional().meta({ description: 'No payment falls due after this' }),
});

export const retryInput = z.object({
  maximum: wholeNumber(100).meta({ description: 'Retries of a failed payment before the subscription is suspended' }),
  interval: z.enum(RETRY_INTERVALS).optional().meta({ description: 'Default Day' }),
  frequency: wholeNumber(1000).optional().meta({ description: 'Intervals between retries (default 1)' }),
});

/** What POST /subscription/payment_method and PUT /subscription/{id} share. */
const subscriptionFields = {
  currency: currencyInput.optional(),
  interval: z.enum(BILLING_INTERVALS).optional().meta({ description: 'Day (the default), Week, Month or Year' }),
  frequency: wholeNumber(1000).optional().meta({ description: 'Intervals between payments, 1–1000' }),
  endAfter: endAfterInput.optional(),
  retry: retryInput.optional().meta({ description: 'Without it, the first failed payment suspends the subscription' }),
  webhook: webhookInput.optional(),
  metadata: metadataInput.optional(),
};

export const newSubscriptionInput = z.object({
  paymentMethodId: z.string().min(1).max(64),
  amount: amountInput,
  ...subscriptionFields,
  startDate: dateInput.optional().meta({ description: 'The first payment is due then (now when absent or past)' }),
});
export type NewSubscription = z.infer<typeof newSubscriptionInput>;

export const subscriptionChangesInput = z.object({
  subscriptionId: z.string().min(1),
  amount: amountInput.optional().meta({ description: 'Absent or 0: unchanged' }),
  paymentMethodId: z.string().min(1).max(64).optional().meta({
    description: "Our extension (no client SDK sends it): charge this payment method, in the subscription's currency, from now on",
  }),
  ...subscriptionFields,
  currency: currencyInput.optional().meta({
    description:
      "Absent: unchanged. Another currency needs an amount in it (90 without); the payment method's provider must take both (29, 2): from the next payment on, every payment is in it",
  }),
});
export type SubscriptionChanges = Omit<z.infer<typeof subscriptionChangesInput>, 'subscriptionId'>;

export const subscriptionOutput = z.object({
  subscriptionId: z.string(),
  paymentMethodId: z.string(),
  amount: z.number(),
  currency: z.string(),
  interval: z.enum(BILLING_INTERVALS),
  frequency: z.number().int(),
  createdDate: dateOutput,
  startDate: dateOutput,
  endAfter: z.object({ amount: z.number().nullable(), count: z.number().int().nullable(), date: nullableDateOutput }).nullable(),
  retry: z.object({ maximum: z.number().int(), interval: z.enum(RETRY_INTERVALS), frequency: z.number().int() }).nullable(),
  webhook: z.object({ url: z.string(), authorization: z.string().nullable().meta({ description: 'Masked' }) }).nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  metadata: z.record(z.string(), z.string()).nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionOutput>;

export const subscriptionListOutput = z.object({
  limit: z.number().int(),
  skip: z.number().int(),
  count: z.number().int(),
  subscriptions: z.array(subscriptionOutput),
});
