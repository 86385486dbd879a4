import { ApiError, newId, notFound } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { WebhookDeliveryView } from '../../schemas/webhook';
import type { Dependencies } from '../deps';
import { DELIVERY_QUEUE, endpointOf, enqueueAttempt, SUBSCRIPTION_REMOVED, TEST_EVENT_TYPE } from './delivery';
import { eventFields, toDeliveryView } from './log';

/**
 * What staff do by hand from the dashboard, through the delivery jobs like every delivery (same
 * signing, SSRF checks, timeout and log): send a subscription a test event, retry a delivery.
 */
export function createManualDeliveries({ db, clock, jobs }: Dependencies) {
  return {
    /**
     * A `webhook.test` event (type Test) to one active subscription, attempted once at once and not
     * retried by itself; its answer comes in the delivery log of `messageId`.
     */
    async sendTest(account: Pick<Account, 'id'>, webhookSubscriptionId: string): Promise<{ messageId: string; deliveryId: string }> {
      const subscription = await db.webhookSubscription.findFirst({
        where: { id: webhookSubscriptionId, accountId: account.id, dateRemoved: null },
      });
      if (!subscription) throw notFound('ValidationError', 'Webhook subscription');
      const now = clock.now();
      const messageId = newId();
      const delivery = { id: newId(), subscriptionId: subscription.id, url: subscription.url };
      await db.$transaction(async (tx) => {
        await tx.webhookEvent.create({
          data: {
            id: messageId,
            accountId: account.id,
            type: TEST_EVENT_TYPE,
            eventType: 'webhook.test',
            resourceId: subscription.id,
            data: { webhookSubscriptionId: subscription.id, message: 'A test delivery sent from the dashboard: nothing changed' },
            createdAt: now,
          },
        });
        await tx.webhookDelivery.create({ data: { ...delivery, eventId: messageId, nextAttemptAt: now, createdAt: now } });
        await enqueueAttempt(jobs, tx, { ...delivery, accountId: account.id }, now);
      });
      return { messageId, deliveryId: delivery.id };
    },

    /**
     * One more attempt of a delivery, now: a failed one is pending again with a new job; a pending
     * one's waiting job comes forward (one running is left to finish). Either way the same delivery,
     * the same body and webhook-id: never a second delivery of the event. A delivered one is refused.
     */
    async retry(account: Pick<Account, 'id'>, deliveryId: string): Promise<WebhookDeliveryView> {
      const where = { id: deliveryId, event: { accountId: account.id } };
      const delivery = await db.webhookDelivery.findFirst({ where });
      if (!delivery) throw notFound('ValidationError', 'Webhook delivery');
      const refuse = (message: string) => new ApiError('ValidationError', { message, details: { deliveryId: message } });
      if (delivery.status === 'DELIVERED') throw refuse('This delivery got through already');
      const removed =
        delivery.subscriptionId !== null &&
        (await db.webhookSubscription.count({ where: { id: delivery.subscriptionId, dateRemoved: { not: null } } })) > 0;
      if (removed) throw refuse(SUBSCRIPTION_REMOVED);
      const now = clock.now();
      await db.$transaction(async (tx) => {
        if (delivery.status === 'FAILED') {
          // Conditional: of two retries at once, one makes the job.
          const { count } = await tx.webhookDelivery.updateMany({
            where: { id: delivery.id, status: 'FAILED' },
            data: { status: 'PENDING', nextAttemptAt: now },
          });
          if (count === 1) await enqueueAttempt(jobs, tx, { ...delivery, accountId: account.id }, now);
          return;
        }
        const moved = await tx.$executeRaw`
          UPDATE "Job" SET "runAt" = ${now}
          WHERE "targetKey" = ${endpointOf(delivery)} AND "status" = 'PENDING' AND "queue" = ${DELIVERY_QUEUE}
            AND "payload"->>'deliveryId' = ${delivery.id} AND "runAt" > ${now}`;
        if (moved > 0) await tx.webhookDelivery.updateMany({ where: { id: delivery.id, status: 'PENDING' }, data: { nextAttemptAt: now } });
      });
      const row = await db.webhookDelivery.findFirstOrThrow({ where, include: { event: { select: eventFields } } });
      return toDeliveryView(row, row.event);
    },
  };
}
