import { ApiError, newId, notFound } from '@gateway/core';
import type { Account, Prisma, WebhookSubscription } from '@gateway/db';
import type { WebhookSubscriptionView, WebhookType } from '../../schemas/webhook';
import { dateRange, paging } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey } from '../idempotency';
import { sealAuthorization } from './authorization';
import { FAILING_AFTER, SUBSCRIPTION_REMOVED } from './delivery';
import { refusedTarget } from './outbound';

export interface NewWebhookSubscription {
  url: string;
  authorization?: string;
  types: WebhookType[];
}

export interface WebhookSubscriptionSearch {
  id?: string;
  type?: WebhookType;
  addedAfter?: Date;
  addedBefore?: Date;
  limit?: number;
  skip?: number;
}

/** A subscription as staff see it: failing from FAILING_AFTER failed attempts in a row, and paused (backing off) until a time. */
export interface WebhookEndpointHealth {
  webhookSubscriptionId: string;
  url: string;
  types: string[];
  failing: boolean;
  failures: number;
  failingSince: string | null;
  pausedUntil: string | null;
}

/** Active subscriptions as `record` needs them: no secrets (a delivery reads the authorization when it is sent). */
export type ActiveSubscription = Pick<WebhookSubscription, 'id' | 'url' | 'types' | 'pausedUntil'>;

/** How long a process trusts the subscriptions it read for an account; its own changes apply at once. */
const CACHE_MS = 5_000;
const CACHE_SIZE = 10_000;
/** Active subscriptions per account unless configured (GATEWAY_WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT). */
export const DEFAULT_SUBSCRIPTIONS_PER_ACCOUNT = 100;

function toView(row: WebhookSubscription): WebhookSubscriptionView {
  return {
    webhookSubscriptionId: row.id,
    accountId: row.accountId,
    url: row.url,
    authorization: row.authorizationKeyId === null ? null : '********',
    types: row.types as WebhookType[],
    createdDate: row.createdDate.toISOString(),
    dateRemoved: row.dateRemoved?.toISOString() ?? null,
  };
}

/** Account-level webhook subscriptions: removal is soft and stops their pending deliveries. */
export function createWebhookSubscriptions({ db, clock, config }: Dependencies) {
  const cache = new Map<string, { until: number; subscriptions: ActiveSubscription[] }>();

  async function subscriptionOf(account: Account, id: string): Promise<WebhookSubscription> {
    const row = await db.webhookSubscription.findFirst({ where: { id, accountId: account.id } });
    if (!row) throw notFound('ValidationError', 'Webhook subscription');
    return row;
  }

  return {
    /**
     * The account's active subscriptions, read through `tx` (the caller's transaction), or from what
     * this process read in the last few seconds unless `fresh` (the outbox always reads afresh: an
     * event must reach a subscription another process has just made).
     */
    async active(tx: Prisma.TransactionClient, accountId: string, { fresh = false } = {}): Promise<ActiveSubscription[]> {
      const now = clock.now().getTime();
      const cached = cache.get(accountId);
      if (!fresh && cached && cached.until > now) return cached.subscriptions;
      const subscriptions = await tx.webhookSubscription.findMany({
        where: { accountId, dateRemoved: null },
        select: { id: true, url: true, types: true, pausedUntil: true },
      });
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(accountId, { until: now + CACHE_MS, subscriptions });
      return subscriptions;
    },

    async create(account: Account, input: NewWebhookSubscription, heldKey?: HeldKey): Promise<WebhookSubscriptionView> {
      const refused = config.allowPrivateWebhooks ? undefined : await refusedTarget(input.url);
      if (refused) throw new ApiError('ValidationError', { message: 'Invalid webhook URL', details: { url: refused } });
      const id = newId();
      const max = config.webhookSubscriptionsPerAccount ?? DEFAULT_SUBSCRIPTIONS_PER_ACCOUNT;
      const row = await db.$transaction(async (tx) => {
        // The account's row lock: concurrent creations count one after another.
        await tx.$queryRaw`SELECT 1 FROM "Account" WHERE "id" = ${account.id} FOR UPDATE`;
        if ((await tx.webhookSubscription.count({ where: { accountId: account.id, dateRemoved: null } })) >= max) {
          throw new ApiError('ValidationError', {
            message: `An account may have at most ${max} webhook subscriptions: remove one first`,
            details: { url: `At most ${max} active webhook subscriptions per account` },
          });
        }
        const created = await tx.webhookSubscription.create({
          data: {
            id,
            accountId: account.id,
            url: input.url,
            types: [...new Set(input.types)],
            ...sealAuthorization(config.keyring, 'WebhookSubscription', id, input.authorization),
            createdDate: clock.now(),
          },
        });
        await bindKey(tx, heldKey, { type: 'webhook-subscription', id });
        return created;
      });
      cache.delete(account.id);
      return toView(row);
    },

    /** A removed subscription is still answered, with dateRemoved. */
    async get(account: Account, id: string): Promise<WebhookSubscriptionView> {
      return toView(await subscriptionOf(account, id));
    },

    /** Soft: answers the subscription with dateRemoved (again, when already removed); its pending deliveries fail. */
    async remove(account: Account, id: string): Promise<WebhookSubscriptionView> {
      const row = await subscriptionOf(account, id);
      const now = clock.now();
      await db.$transaction([
        db.webhookSubscription.updateMany({ where: { id: row.id, dateRemoved: null }, data: { dateRemoved: now } }),
        db.webhookDelivery.updateMany({
          where: { subscriptionId: row.id, status: 'PENDING' },
          data: { status: 'FAILED', lastError: SUBSCRIPTION_REMOVED, nextAttemptAt: null },
        }),
      ]);
      cache.delete(account.id);
      return toView(await db.webhookSubscription.findUniqueOrThrow({ where: { id: row.id } }));
    },

    /** Active subscriptions with their endpoint's health, for staff (the dashboard): newest first. */
    async endpoints(account: Pick<Account, 'id'>): Promise<WebhookEndpointHealth[]> {
      const rows = await db.webhookSubscription.findMany({
        where: { accountId: account.id, dateRemoved: null },
        orderBy: [{ createdDate: 'desc' }, { id: 'desc' }],
      });
      return rows.map((row) => ({
        webhookSubscriptionId: row.id,
        url: row.url,
        types: row.types,
        failing: row.failures >= FAILING_AFTER,
        failures: row.failures,
        failingSince: row.failingSince?.toISOString() ?? null,
        pausedUntil: row.pausedUntil?.toISOString() ?? null,
      }));
    },

    /** Active subscriptions, newest first (Sort/SortBy None and Date both mean that). */
    async search(account: Account, input: WebhookSubscriptionSearch) {
      const where: Prisma.WebhookSubscriptionWhereInput = {
        accountId: account.id,
        dateRemoved: null,
        ...(input.id !== undefined && { id: input.id }),
        ...(input.type !== undefined && { types: { has: input.type } }),
        ...dateRange(input, 'createdDate'),
      };
      const { take, skip } = paging(input);
      const [count, rows] = await Promise.all([
        db.webhookSubscription.count({ where }),
        db.webhookSubscription.findMany({ where, orderBy: [{ createdDate: 'desc' }, { id: 'desc' }], take, skip }),
      ]);
      return { webhookSubscriptions: rows.map(toView), count };
    },
  };
}

export type WebhookSubscriptions = ReturnType<typeof createWebhookSubscriptions>;
