import { createHash } from 'node:crypto';
import {
  ApiError,
  billingEnded,
  formatAmount,
  nextDueDate,
  nextPaymentAmount,
  retryDelayMs,
  type BillingInterval,
  type BillingSchedule,
  type EndAfter,
  type SubscriptionStatus,
} from '@gateway/core';
import type { Prisma, Subscription } from '@gateway/db';
import type { JobHandler } from '@gateway/jobs';
import type { ChargeService } from '../charges';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { openWebhook, type WebhookService } from '../webhooks';
import { retryOf, toSubscriptionView } from './view';

export const BILLING_QUEUE = 'subscription.bill';
/** A job throws only while its charge is in flight or the database fails: keep trying for days (backoff capped at 6 h). */
const BILLING_ATTEMPTS = 25;

/** One try at the payment due at `dueAt`: `tries` earlier tries of it failed. */
interface BillingJob {
  subscriptionId: string;
  dueAt: string;
  tries: number;
}

export const scheduleOf = (s: Subscription): BillingSchedule => ({
  startDate: s.startDate,
  interval: s.interval as BillingInterval,
  frequency: s.frequency,
});

export const endAfterOf = (s: Subscription): EndAfter => ({ count: s.endAfterCount, amount: s.endAfterAmount, date: s.endAfterDate });

/** The fields of a subscription that takes no more payments. */
export const stopped = (status: Exclude<SubscriptionStatus, 'Active'>) => ({ status, nextBillingAt: null, failedTries: 0 });

/** Locks the account's subscription row for the transaction and reads it (null: no such subscription). */
export async function lockSubscription(tx: Prisma.TransactionClient, accountId: string, id: string): Promise<Subscription | null> {
  const locked = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM "Subscription" WHERE "id" = ${id} AND "accountId" = ${accountId} FOR UPDATE`;
  return locked.length === 0 ? null : tx.subscription.findUnique({ where: { id } });
}

/** The id of the charge of one try: a repeated run of the job finds it instead of charging again. */
const chargeIdOf = (job: BillingJob) =>
  createHash('sha256').update(`subscription:${job.subscriptionId}:${job.dueAt}:${job.tries}`).digest('hex').slice(0, 32);

/** Whether the subscription still waits for this try (a change of status or a resumption makes older jobs void). */
const awaits = (s: Subscription, job: BillingJob) =>
  s.status === 'Active' && s.nextBillingAt?.toISOString() === job.dueAt && s.failedTries === job.tries;

export interface BillingDeps {
  charges: Pick<ChargeService, 'createPaymentMethodCharge'>;
  webhooks: Pick<WebhookService, 'record'>;
}

/**
 * The scheduler: one job per try of each due payment, keyed by subscription, due date and try, so
 * that any gateway process may run it, a restart loses nothing, and nothing is charged twice.
 */
export function createBilling({ db, clock, logger, jobs, config }: Dependencies, { charges, webhooks }: BillingDeps) {
  /** Enqueues the next try of an Active subscription, in the transaction that set its nextBillingAt. */
  async function schedule(tx: Prisma.TransactionClient, s: Subscription, runAt = s.nextBillingAt) {
    if (s.status !== 'Active' || !s.nextBillingAt || !runAt) return;
    const job: BillingJob = { subscriptionId: s.id, dueAt: s.nextBillingAt.toISOString(), tries: s.failedTries };
    const dedupeKey = `subscription:${job.subscriptionId}:${job.dueAt}:${job.tries}`;
    await jobs.enqueue(BILLING_QUEUE, { ...job }, { runAt, dedupeKey, maxAttempts: BILLING_ATTEMPTS, tx });
  }

  /** After a change of status, in its transaction: bills again if Active, and tells the merchant. */
  async function statusChanged(tx: Prisma.TransactionClient, s: Subscription) {
    await schedule(tx, s);
    await webhooks.record(tx, {
      accountId: s.accountId,
      type: 'Subscription',
      eventType: 'subscription.status.changed',
      resourceId: s.id,
      data: toSubscriptionView(s),
      webhook: openWebhook(config.keyring, 'Subscription', s.id, s.webhook),
    });
  }

  /** The new state after a try: paid (the amount) or failed (undefined). */
  function settle(s: Subscription, job: BillingJob, paid: bigint | undefined): { data: Prisma.SubscriptionUpdateInput; runAt?: Date } {
    const now = clock.now();
    if (paid !== undefined) {
      const progress = { paymentCount: s.paymentCount + 1, paidAmount: s.paidAmount + paid };
      // Changed while the payment was made (suspended, cancelled…): it counts; the schedule is the change's.
      if (!awaits(s, job)) return { data: progress };
      const dueAt = new Date(job.dueAt);
      const next = nextDueDate(scheduleOf(s), dueAt > now ? dueAt : now);
      return billingEnded(endAfterOf(s), progress, next)
        ? { data: { ...progress, ...stopped('Complete') } }
        : { data: { ...progress, nextBillingAt: next, failedTries: 0 }, runAt: next };
    }
    if (!awaits(s, job)) return { data: {} };
    const retry = retryOf(s);
    if (retry && job.tries < retry.maximum) {
      return { data: { failedTries: job.tries + 1 }, runAt: new Date(now.getTime() + retryDelayMs(retry)) };
    }
    return { data: stopped('Suspended') };
  }

  const bill: JobHandler = async (payload, ctx) => {
    const job = payload as unknown as BillingJob;
    const s = await db.subscription.findUnique({ where: { id: job.subscriptionId }, include: { account: true } });
    if (!s) return;
    const chargeId = chargeIdOf(job);
    // A charge made by an earlier run of this job that stopped before recording it is settled now.
    let charge = await db.charge.findUnique({ where: { id: chargeId } });
    if (!charge) {
      if (!awaits(s, job)) return;
      const amount = formatAmount(nextPaymentAmount(s.amount, endAfterOf(s), s), requireCurrency(s.currency));
      const refusal = await charges
        .createPaymentMethodCharge(
          s.account,
          { paymentMethodId: s.paymentMethodId, amount, currency: s.currency, recurring: true },
          { chargeId, subscriptionId: s.id },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      charge = await db.charge.findUnique({ where: { id: chargeId } });
      // No charge and no refusal of ours: the database failed; the job tries again.
      if (!charge && !(refusal instanceof ApiError)) throw refusal;
      if (refusal instanceof ApiError) logger.info({ subscriptionId: s.id, chargeId, code: refusal.code }, 'subscription payment failed');
    }
    if (charge?.status === 'PROCESSING') throw new Error(`charge ${chargeId} is still in flight`);
    const paid = charge && charge.status !== 'FAILED' ? charge.amount : undefined;

    await db.$transaction(async (tx) => {
      const current = await lockSubscription(tx, s.accountId, s.id);
      if (!current) return;
      const { data, runAt } = settle(current, job, paid);
      const updated = await tx.subscription.update({ where: { id: s.id }, data });
      await ctx.complete(tx);
      if (updated.status !== current.status) await statusChanged(tx, updated);
      else if (runAt) await schedule(tx, updated, runAt);
    });
  };

  return { schedule, statusChanged, jobHandlers: { [BILLING_QUEUE]: bill } };
}
