import { z } from 'zod';
import { dateOutput, nullableDateOutput } from './common';

/** Webhook event types (wire.md §6), in the .NET client's order; input binds any letter case ("transaction"). */
export const WEBHOOK_TYPES = ['Transaction', 'Batch', 'Subscription', 'Customer', 'PaymentMethod'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

export const webhookTypeSchema = z
  .enum(WEBHOOK_TYPES)
  .meta({ description: 'Transaction, Batch, Subscription, Customer or PaymentMethod (any case)' });

export const webhookSubscriptionOutput = z
  .object({
    webhookSubscriptionId: z.string(),
    accountId: z.string(),
    url: z.string(),
    authorization: z.string().nullable().meta({ description: '"********" when an authorization value is set: it is never answered' }),
    types: z.array(webhookTypeSchema),
    createdDate: dateOutput,
    dateRemoved: nullableDateOutput,
  })
  .meta({ id: 'WebhookSubscription' });

export type WebhookSubscriptionView = z.infer<typeof webhookSubscriptionOutput>;

/** Types of the events in the delivery log: those above, and Test for a test delivery sent from the dashboard. */
const webhookEventTypeOutput = z
  .enum([...WEBHOOK_TYPES, 'Test'])
  .meta({ description: 'Transaction, Batch, Subscription, Customer, PaymentMethod, or Test (a test delivery sent from the dashboard)' });

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export const webhookDeliveryOutput = z
  .object({
    deliveryId: z.string(),
    messageId: z.string(),
    type: webhookEventTypeOutput,
    eventType: z.string(),
    resourceId: z.string(),
    webhookSubscriptionId: z.string().nullable().meta({ description: 'null: the webhook object of the request that made the change' }),
    url: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: nullableDateOutput,
    deliveredAt: nullableDateOutput,
    createdDate: dateOutput,
  })
  .meta({ id: 'WebhookDelivery' });

export type WebhookDeliveryView = z.infer<typeof webhookDeliveryOutput>;

export const webhookEventOutput = z
  .object({
    messageId: z.string(),
    type: webhookEventTypeOutput,
    eventType: z.string(),
    resourceId: z.string(),
    createdDate: dateOutput.meta({ description: 'Also meta.timestamp of every delivery of the event' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The resource as the API answered it when the event happened' }),
    deliveries: z.array(
      webhookDeliveryOutput.extend({
        attemptLog: z.array(
          z.object({
            date: dateOutput,
            statusCode: z.number().int().nullable(),
            error: z.string().nullable(),
            durationMs: z.number().int(),
            responseExcerpt: z.string().nullable().meta({ description: "The start of the receiver's answer body (512 bytes at most)" }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'WebhookEvent' });

export type WebhookEventView = z.infer<typeof webhookEventOutput>;
