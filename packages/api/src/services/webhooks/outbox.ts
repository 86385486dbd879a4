import { newId } from '@gateway/core';
import type { Prisma } from '@gateway/db';
import type { WebhookType } from '../../schemas/webhook';
import type { Dependencies } from '../deps';
import { sealAuthorization, type Webhook } from './authorization';
import { enqueueAttempt } from './delivery';
import type { WebhookSubscriptions } from './subscriptions';

/** A change to report, as the service that made it describes it (see docs/webhooks.md for event types). */
export interface WebhookEventInput {
  accountId: string;
  type: WebhookType;
  /** `transaction.status.changed`, `customer.created`… */
  eventType: string;
  resourceId: string;
  /** The resource as the API answers it after the change. */
  data: unknown;
  /** The webhook object of the request that made the resource, in clear (it is sealed here). */
  webhook?: Webhook | null;
}

/**
 * The outbox: `record` runs inside the transaction of the change it reports, so the event, its
 * deliveries and their jobs exist exactly when the change does.
 */
export function createOutbox({ clock, config, jobs }: Dependencies, subscriptions: Pick<WebhookSubscriptions, 'active'>) {
  return {
    /**
     * Writes the event and one delivery per destination (each active subscription of the account
     * to its type, and the request's webhook), and enqueues their first attempts. Nothing at all
     * when there is no destination.
     */
    async record(tx: Prisma.TransactionClient, event: WebhookEventInput): Promise<void> {
      const subscribed = (await subscriptions.active(tx, event.accountId, { fresh: true })).filter((s) => s.types.includes(event.type));
      if (subscribed.length === 0 && !event.webhook) return;
      const eventId = newId();
      await tx.webhookEvent.create({
        data: {
          id: eventId,
          accountId: event.accountId,
          type: event.type,
          eventType: event.eventType,
          resourceId: event.resourceId,
          data: event.data as Prisma.InputJsonValue,
          createdAt: clock.now(),
        },
      });
      const now = clock.now();
      // A failing endpoint's first attempt waits for the end of its pause.
      const deliveries: Array<Prisma.WebhookDeliveryCreateManyInput & { nextAttemptAt: Date }> = subscribed.map((s) => ({
        id: newId(),
        eventId,
        subscriptionId: s.id,
        url: s.url,
        nextAttemptAt: s.pausedUntil && s.pausedUntil > now ? s.pausedUntil : now,
        createdAt: now,
      }));
      if (event.webhook) {
        const id = newId();
        const { url, authorization } = event.webhook;
        const sealed = sealAuthorization(config.keyring, 'WebhookDelivery', id, authorization);
        deliveries.push({ id, eventId, url, nextAttemptAt: now, createdAt: now, ...sealed });
      }
      await tx.webhookDelivery.createMany({ data: deliveries });
      for (const d of deliveries) {
        await enqueueAttempt(
          jobs,
          tx,
          { id: d.id, subscriptionId: d.subscriptionId ?? null, url: d.url, accountId: event.accountId },
          d.nextAttemptAt,
        );
      }
    },
  };
}
