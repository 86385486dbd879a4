import { performance } from 'node:perf_hooks';
import { newId } from '@gateway/core';
import type { Prisma, WebhookDelivery, WebhookEvent } from '@gateway/db';
import type { JobHandler, JobQueue, Lane } from '@gateway/jobs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Dependencies } from '../deps';
import { openAuthorization } from './authorization';
import { postJson, type PostOutcome } from './outbound';
import type { createSigningKeys } from './signing';
import { signature } from './signing';

export const DELIVERY_QUEUE = 'webhook.deliver';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Wait after each failed attempt: 10 attempts over about 22 hours, then the delivery fails. A
 * fixed table (no jitter) so the delivery log tells the merchant exactly when the next try comes.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  6 * HOUR,
  8 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * A delivery still pending this long after it was made fails, whatever its attempt count: a dead
 * endpoint's backlog (paused, so its deliveries seldom get an attempt) would otherwise stay
 * pending, and its events unprunable, for good. Well past the retry schedule's 22 hours. Failed
 * after an attempt, or by the maintenance run (log.ts) for those that get none.
 */
export const DELIVERY_MAX_AGE_MS = 3 * 24 * HOUR;
export const EXPIRED = 'Not delivered within 3 days';

const DEFAULT_TIMEOUT_MS = 10_000;

/** Deliveries in flight at once per process (GATEWAY_WEBHOOK_CONCURRENCY), apart from all other jobs. */
export const DEFAULT_DELIVERY_CONCURRENCY = 16;
/** Deliveries in flight at once to one endpoint. */
const PER_ENDPOINT = 4;

/**
 * The job lane of deliveries: slots of their own, so internal work never waits behind them, and
 * claims round-robin by account then endpoint, an account holding at most half the slots.
 */
export function deliveryLane(concurrency = DEFAULT_DELIVERY_CONCURRENCY): Lane {
  return {
    queues: [DELIVERY_QUEUE],
    concurrency,
    caps: { perGroup: Math.max(1, Math.floor(concurrency / 2)), perTarget: PER_ENDPOINT },
  };
}

/** Failed attempts in a row after which an endpoint is failing: it backs off and staff see it. */
export const FAILING_AFTER = 5;
const FIRST_PAUSE_MS = 30_000;
const MAX_PAUSE_MS = HOUR;

/** How long a failing endpoint gets nothing after its `failures`-th failed attempt in a row: doubling, at most an hour. */
export function pauseMs(failures: number): number {
  if (failures < FAILING_AFTER) return 0;
  return Math.min(FIRST_PAUSE_MS * 2 ** Math.min(failures - FAILING_AFTER, 20), MAX_PAUSE_MS);
}

/** The job key of a delivery's endpoint: its subscription, or the host of a request's webhook. */
export const endpointOf = (delivery: Pick<WebhookDelivery, 'subscriptionId' | 'url'>) =>
  delivery.subscriptionId ? `webhook-subscription:${delivery.subscriptionId}` : `webhook-url:${new URL(delivery.url).host}`;

/** Enqueues the attempt of a delivery at `runAt`, keyed for the fair claim of its lane. */
export function enqueueAttempt(
  jobs: JobQueue,
  tx: Prisma.TransactionClient,
  delivery: Pick<WebhookDelivery, 'id' | 'subscriptionId' | 'url'> & { accountId: string },
  runAt: Date,
): Promise<string> {
  return jobs.enqueue(DELIVERY_QUEUE, { deliveryId: delivery.id }, { tx, runAt, group: delivery.accountId, target: endpointOf(delivery) });
}

/** The event type of a test delivery sent from the dashboard: one attempt, never retried by itself. */
export const TEST_EVENT_TYPE = 'Test';

/** The last error of a delivery whose subscription was removed before it got through. */
export const SUBSCRIPTION_REMOVED = 'The webhook subscription was removed';

/** `transaction`, `paymentMethod`…: meta.type as the wire sample spells it. */
const metaType = (type: string) => type.charAt(0).toLowerCase() + type.slice(1);

/** The delivered body: the same bytes on every attempt of every delivery of the event. */
export function deliveryBody(event: WebhookEvent): string {
  const meta = { messageId: event.id, timestamp: event.createdAt.toISOString(), type: metaType(event.type), eventType: event.eventType };
  return JSON.stringify({ meta, data: event.data });
}

/**
 * One attempt of one delivery per job run. Its outcome, the attempt's log row and the job of the
 * next attempt commit together with the job's completion; a process that dies during the request
 * leaves the job to run again after its lease, with the same body (at least once).
 */
export function createDeliveryHandler(
  { db, clock, config, jobs }: Dependencies,
  { signingKey }: Pick<ReturnType<typeof createSigningKeys>, 'signingKey'>,
): JobHandler {
  /**
   * Where a delivery goes: its own Authorization value (a request's webhook) or its subscription's;
   * undefined once the subscription was removed (another process may have made the delivery
   * after the removal, from subscriptions it had read a moment before).
   */
  async function destinationOf(delivery: WebhookDelivery): Promise<{ authorization?: string } | undefined> {
    if (delivery.subscriptionId === null) return { authorization: openAuthorization(config.keyring, 'WebhookDelivery', delivery) };
    const subscription = await db.webhookSubscription.findUniqueOrThrow({ where: { id: delivery.subscriptionId } });
    if (subscription.dateRemoved !== null) return undefined;
    return { authorization: openAuthorization(config.keyring, 'WebhookSubscription', subscription) };
  }

  /**
   * Sends the body, signed with the account's key as it is now (a rotated key signs the retries):
   * X-Payfurl-Signature as the SDKs check it, and the Standard Webhooks headers (the same key as
   * their secret) with this attempt's time, so a receiver can refuse old or replayed deliveries.
   */
  async function send(delivery: WebhookDelivery & { event: WebhookEvent }): Promise<PostOutcome> {
    const destination = await destinationOf(delivery);
    if (!destination) return { error: SUBSCRIPTION_REMOVED, refused: true };
    const body = deliveryBody(delivery.event);
    const { authorization } = destination;
    const key = await signingKey({ id: delivery.event.accountId });
    const sentAt = clock.now();
    const headers = {
      'x-payfurl-signature': signature(key, body),
      'webhook-id': delivery.event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new StandardWebhook(key).sign(delivery.event.id, sentAt, body),
      ...(authorization !== undefined && { authorization }),
    };
    return postJson(delivery.url, body, {
      headers,
      timeoutMs: config.webhookTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      allowPrivate: config.allowPrivateWebhooks ?? false,
    });
  }

  /**
   * Counts the attempt against its subscription's endpoint: a 2xx clears its failures, anything
   * else adds one. Returns the failures in a row, when the attempt failed.
   */
  async function countAttempt(tx: Prisma.TransactionClient, delivery: WebhookDelivery, outcome: PostOutcome): Promise<number | undefined> {
    const id = delivery.subscriptionId;
    if (id === null || outcome.error === SUBSCRIPTION_REMOVED) return undefined;
    if (outcome.error === undefined) {
      await tx.webhookSubscription.updateMany({
        where: { id, failures: { gt: 0 } },
        data: { failures: 0, failingSince: null, pausedUntil: null },
      });
      return undefined;
    }
    const [{ failures }] = await tx.$queryRaw<[{ failures: number }]>`
      UPDATE "WebhookSubscription"
      SET "failures" = "failures" + 1, "failingSince" = COALESCE("failingSince", ${clock.now().toISOString()}::timestamptz)
      WHERE "id" = ${id} RETURNING "failures"`;
    return failures;
  }

  /**
   * From FAILING_AFTER failures in a row, pauses the endpoint (pauseMs): its pending deliveries
   * and their jobs move past the pause, so it holds no delivery slot meanwhile.
   */
  async function pauseIfFailing(tx: Prisma.TransactionClient, delivery: WebhookDelivery, failures: number): Promise<void> {
    const pause = pauseMs(failures);
    if (pause === 0 || delivery.subscriptionId === null) return;
    const until = new Date(clock.now().getTime() + pause);
    await tx.webhookSubscription.update({ where: { id: delivery.subscriptionId }, data: { pausedUntil: until } });
    await jobs.postpone(endpointOf(delivery), until, { tx });
    await tx.webhookDelivery.updateMany({
      where: { subscriptionId: delivery.subscriptionId, status: 'PENDING', nextAttemptAt: { lt: until } },
      data: { nextAttemptAt: until },
    });
  }

  return async (payload, ctx) => {
    const { deliveryId } = payload as { deliveryId: string };
    const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { event: true } });
    if (delivery?.status !== 'PENDING') return;
    const at = clock.now();
    const started = performance.now();
    const outcome = await send(delivery);
    const durationMs = Math.round(performance.now() - started);

    const attempts = delivery.attempts + 1;
    const delivered = outcome.error === undefined;
    const young = at.getTime() - delivery.createdAt.getTime() < DELIVERY_MAX_AGE_MS;
    const test = delivery.event.type === TEST_EVENT_TYPE;
    const retry = !delivered && !outcome.refused && !test && attempts < MAX_ATTEMPTS && young;
    const nextAttemptAt = retry ? new Date(clock.now().getTime() + (RETRY_DELAYS_MS[attempts - 1] ?? 0)) : null;
    await db.$transaction(async (tx) => {
      // The endpoint's row first: every attempt to one endpoint locks it before any delivery row,
      // so one that pauses the endpoint (and updates its other deliveries) cannot deadlock with another.
      const failures = await countAttempt(tx, delivery, outcome);
      // Fenced on the attempt count: a run that lost its lease cannot record its attempt twice.
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: delivery.id, status: 'PENDING', attempts: delivery.attempts },
        data: {
          status: delivered ? 'DELIVERED' : retry ? 'PENDING' : 'FAILED',
          attempts,
          lastStatusCode: outcome.statusCode ?? null,
          lastError: outcome.error ?? null,
          nextAttemptAt,
          deliveredAt: delivered ? clock.now() : null,
        },
      });
      if (count === 0) return;
      await tx.webhookAttempt.create({
        data: {
          id: newId(),
          deliveryId: delivery.id,
          at,
          statusCode: outcome.statusCode ?? null,
          error: outcome.error ?? null,
          durationMs,
          responseExcerpt: outcome.responseExcerpt ?? null,
        },
      });
      if (nextAttemptAt) await enqueueAttempt(jobs, tx, { ...delivery, accountId: delivery.event.accountId }, nextAttemptAt);
      if (failures !== undefined) await pauseIfFailing(tx, delivery, failures);
      await ctx.complete(tx);
    });
  };
}
