import type { Prisma } from '@gateway/db';
import type { WebhookType } from '../../schemas/webhook';
import type { Dependencies } from '../deps';
import { createDeliveryHandler, DELIVERY_QUEUE, deliveryLane } from './delivery';
import { createDeliveryLog } from './log';
import { createManualDeliveries } from './manual';
import { createOutbox } from './outbox';
import { createSigningKeys } from './signing';
import { createWebhookSubscriptions } from './subscriptions';

export { openWebhook, sealWebhook, type Webhook } from './authorization';
export type { WebhookEventInput } from './outbox';

/**
 * Webhooks (docs/webhooks.md): events written to an outbox in the transaction of the change they
 * report (`record`), delivered signed and at least once by a background job with backoff, to the
 * account's subscriptions and to the webhook object of the request that made the resource.
 */
export function createWebhookService(deps: Dependencies) {
  const subscriptions = createWebhookSubscriptions(deps);
  const signing = createSigningKeys(deps);
  const log = createDeliveryLog(deps);
  const manual = createManualDeliveries(deps);
  return {
    record: createOutbox(deps, subscriptions).record,
    /**
     * Whether the account has an active subscription to `type`, from the subscriptions this
     * process read in the last few seconds: lets a hot path (charges) skip the transaction an
     * event needs when nobody listens. Inside a transaction, pass it: the embedded database has a
     * single connection, which the transaction holds.
     */
    listens: async (accountId: string, type: WebhookType, client: Prisma.TransactionClient = deps.db) =>
      (await subscriptions.active(client, accountId)).some((s) => s.types.includes(type)),
    signingKey: signing.signingKey,
    rotateSigningKey: signing.rotateSigningKey,
    createSubscription: subscriptions.create,
    getSubscription: subscriptions.get,
    removeSubscription: subscriptions.remove,
    searchSubscriptions: subscriptions.search,
    endpoints: subscriptions.endpoints,
    event: log.event,
    searchDeliveries: log.deliveries,
    sendTest: manual.sendTest,
    retryDelivery: manual.retry,
    expireDeliveries: log.expire,
    prune: log.prune,
    jobHandlers: { [DELIVERY_QUEUE]: createDeliveryHandler(deps, signing) },
    jobLane: deliveryLane(deps.config.webhookConcurrency),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
