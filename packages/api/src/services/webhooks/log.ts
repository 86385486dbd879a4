import { notFound } from '@gateway/core';
import type { Account, Prisma, WebhookDelivery, WebhookEvent } from '@gateway/db';
import type { WebhookDeliveryView, WebhookEventView, WebhookType } from '../../schemas/webhook';
import { dateRange, paging } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { deleteInBatches } from '../prune';
import { DELIVERY_MAX_AGE_MS, DELIVERY_QUEUE, EXPIRED } from './delivery';

/** Events, with their deliveries and attempt logs, are kept 30 days by default. */
export const DEFAULT_WEBHOOK_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** Events per statement: each takes its deliveries and their attempts along (ON DELETE CASCADE). */
const PRUNE_BATCH = 200;
const EXPIRE_BATCH = 500;

export interface WebhookDeliverySearch {
  resourceId?: string;
  status?: WebhookDelivery['status'];
  type?: WebhookType;
  addedAfter?: Date;
  addedBefore?: Date;
  limit?: number;
  skip?: number;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** What a delivery shows of its event. */
export const eventFields = { id: true, type: true, eventType: true, resourceId: true } as const;

export function toDeliveryView(delivery: WebhookDelivery, event: Pick<WebhookEvent, keyof typeof eventFields>): WebhookDeliveryView {
  return {
    deliveryId: delivery.id,
    messageId: event.id,
    type: event.type as WebhookDeliveryView['type'],
    eventType: event.eventType,
    resourceId: event.resourceId,
    webhookSubscriptionId: delivery.subscriptionId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    deliveredAt: iso(delivery.deliveredAt),
    createdDate: delivery.createdAt.toISOString(),
  };
}

/** The delivery log: what was sent where, each attempt's outcome, and when the next one comes. */
export function createDeliveryLog({ db, clock, config }: Dependencies) {
  return {
    /** Fails the deliveries pending for longer than DELIVERY_MAX_AGE_MS and drops their waiting jobs; returns how many. */
    expire(): Promise<number> {
      const before = new Date(clock.now().getTime() - DELIVERY_MAX_AGE_MS).toISOString();
      return deleteInBatches(EXPIRE_BATCH, async (limit) => {
        const [{ n }] = await db.$queryRaw<[{ n: number }]>`
          WITH expired AS (
            UPDATE "WebhookDelivery" SET "status" = 'FAILED', "lastError" = ${EXPIRED}, "nextAttemptAt" = NULL
            WHERE "id" IN (
              SELECT "id" FROM "WebhookDelivery"
              WHERE "status" = 'PENDING' AND "createdAt" < ${before}::timestamptz
              LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING "id"
          ),
          dropped AS (
            DELETE FROM "Job"
            WHERE "queue" = ${DELIVERY_QUEUE} AND "status" = 'PENDING' AND "payload"->>'deliveryId' IN (SELECT "id" FROM expired)
          )
          SELECT count(*)::int AS n FROM expired`;
        return n;
      });
    },

    /** Deletes events older than their retention whose deliveries are all finished, with those deliveries and attempts. */
    prune(): Promise<number> {
      const before = new Date(clock.now().getTime() - (config.retention?.webhookEventsMs ?? DEFAULT_WEBHOOK_RETENTION_MS));
      return deleteInBatches(
        PRUNE_BATCH,
        (limit) => db.$executeRaw`
          DELETE FROM "WebhookEvent" WHERE "id" IN (
            SELECT e."id" FROM "WebhookEvent" e
            WHERE e."createdAt" < ${before.toISOString()}::timestamptz
              AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e."id" AND d."status" = 'PENDING')
            LIMIT ${limit})`,
      );
    },

    /** The event (by its messageId) with every delivery and attempt. */
    async event(account: Account, messageId: string): Promise<WebhookEventView> {
      const event = await db.webhookEvent.findFirst({
        where: { id: messageId, accountId: account.id },
        include: { deliveries: { include: { attemptLog: { orderBy: { at: 'asc' } } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
      });
      if (!event) throw notFound('ValidationError', 'Webhook event');
      return {
        messageId: event.id,
        type: event.type as WebhookEventView['type'],
        eventType: event.eventType,
        resourceId: event.resourceId,
        createdDate: event.createdAt.toISOString(),
        data: event.data as Record<string, unknown>,
        deliveries: event.deliveries.map((delivery) => ({
          ...toDeliveryView(delivery, event),
          attemptLog: delivery.attemptLog.map((a) => ({
            date: a.at.toISOString(),
            statusCode: a.statusCode,
            error: a.error,
            durationMs: a.durationMs,
            responseExcerpt: a.responseExcerpt,
          })),
        })),
      };
    },

    /** Deliveries, newest first. */
    async deliveries(account: Account, input: WebhookDeliverySearch) {
      const where: Prisma.WebhookDeliveryWhereInput = {
        event: {
          accountId: account.id,
          ...(input.resourceId !== undefined && { resourceId: input.resourceId }),
          ...(input.type !== undefined && { type: input.type }),
        },
        ...(input.status !== undefined && { status: input.status }),
        ...dateRange(input, 'createdAt'),
      };
      const { take, skip } = paging(input);
      const [count, rows] = await Promise.all([
        db.webhookDelivery.count({ where }),
        db.webhookDelivery.findMany({
          where,
          include: { event: { select: eventFields } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take,
          skip,
        }),
      ]);
      return { limit: take, skip, count, deliveries: rows.map((row) => toDeliveryView(row, row.event)) };
    },
  };
}
