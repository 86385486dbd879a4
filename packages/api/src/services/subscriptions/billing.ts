import {
  ApiError,
  billingEnded,
  formatAmount,
  nextDueDate,
  nextPaymentAmount,
  paymentChargeId,
  retryDelayMs,
  type BillingInterval,
  type BillingSchedule,
  type EndAfter,
  type SubscriptionStatus,
} from '@gateway/core';
import type { Account, Charge, Prisma, Subscription } from '@gateway/db';
import type { JobHandler } from '@gateway/jobs';
import type { ChargeService } from '../charges';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { openWebhook, type WebhookService } from '../webhooks';
import { retryOf, toSubscriptionView } from './view';

export const BILLING_QUEUE = 'subscription.bill';
/** A job throws only while its charge is in flight or the database fails: keep trying for days (backoff capped at 6 h). */
const BILLING_ATTEMPTS = 25;
/** How often a payment held for staff (its outcome unknown at the provider) is looked at again. */
const HELD_RECHECK_MS = 60 * 60_000;

/** An amount in ISO minor units of a currency, as a subscription or a charge holds it. */
interface Money {
  amount: bigint;
  currency: string;
}

/** A billing job's payload: one try at the payment due at `dueAt`, after `tries` failed tries of it. */
interface BillingJob {
  subscriptionId: string;
  dueAt: string;
  tries: number;
  /** How many times this try's payment, held for staff, was looked at (docs/outcome-unknown.md). */
  looks?: number;
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

const chargeIdOf = (job: BillingJob) => paymentChargeId({ ...job, dueAt: new Date(job.dueAt) });

/** Whether the subscription still waits for this try (a change of status or a resumption makes older jobs void). */
const awaits = (s: Subscription, job: BillingJob) =>
  s.status === 'Active' && s.nextBillingAt?.toISOString() === job.dueAt && s.failedTries === job.tries;

export interface BillingDeps {
  charges: Pick<ChargeService, 'createPaymentMethodCharge' | 'checkPaymentMethodCharge' | 'resumePaymentMethodCharge'>;
  webhooks: Pick<WebhookService, 'record'>;
}

/**
 * The scheduler: one job per try of each due payment, keyed by subscription, due date and try, so
 * that any gateway process may run it, a restart loses nothing, and nothing is charged twice: the
 * try's charge has an id computed from the same three (paymentChargeId), the database refuses a
 * second charge with it, and the job's completion commits with what the try changed.
 */
export function createBilling({ db, clock, logger, jobs, config }: Dependencies, { charges, webhooks }: BillingDeps) {
  /** Enqueues the next try of an Active subscription, in the transaction that set its nextBillingAt. */
  async function schedule(tx: Prisma.TransactionClient, s: Subscription, runAt = s.nextBillingAt) {
    if (s.status !== 'Active' || !s.nextBillingAt || !runAt) return;
    const job: BillingJob = { subscriptionId: s.id, dueAt: s.nextBillingAt.toISOString(), tries: s.failedTries };
    const dedupeKey = `subscription:${job.subscriptionId}:${job.dueAt}:${job.tries}`;
    await jobs.enqueue(BILLING_QUEUE, { ...job }, { runAt, dedupeKey, maxAttempts: BILLING_ATTEMPTS, group: s.accountId, tx });
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

  /**
   * The new state after a try: paid (the charge) or failed (undefined). A payment counts toward
   * endAfter.amount only in the subscription's currency (a change of currency while it was made
   * leaves it out of the new currency's total).
   */
  function settle(s: Subscription, job: BillingJob, paid: Money | undefined): { data: Prisma.SubscriptionUpdateInput; runAt?: Date } {
    if (paid !== undefined) {
      const counted = paid.currency === s.currency ? paid.amount : 0n;
      const progress = { paymentCount: s.paymentCount + 1, paidAmount: s.paidAmount + counted };
      // Changed while the payment was made (suspended, cancelled…): it counts; the schedule is the change's.
      if (!awaits(s, job)) return { data: progress };
      // Every due date is billed once: after a late payment (the gateway was down, or retries took
      // time) the payments that fell due meanwhile follow at once.
      const next = nextDueDate(scheduleOf(s), new Date(job.dueAt));
      return billingEnded(endAfterOf(s), progress, next)
        ? { data: { ...progress, ...stopped('Complete') } }
        : { data: { ...progress, nextBillingAt: next, failedTries: 0 }, runAt: next };
    }
    if (!awaits(s, job)) return { data: {} };
    const retry = retryOf(s);
    if (retry && job.tries < retry.maximum) {
      return { data: { failedTries: job.tries + 1 }, runAt: new Date(clock.now().getTime() + retryDelayMs(retry)) };
    }
    return { data: stopped('Suspended') };
  }

  /** A payment of the subscription; its transaction events also go to the subscription's webhook. */
  const paymentOf = (s: Subscription, { amount, currency }: Money) => ({
    paymentMethodId: s.paymentMethodId,
    amount: formatAmount(amount, requireCurrency(currency)),
    currency,
    recurring: true,
    webhook: openWebhook(config.keyring, 'Subscription', s.id, s.webhook) ?? undefined,
  });

  /** The next payment of the subscription: its amount (what endAfter.amount leaves, if less), in its currency, on its payment method. */
  const nextPayment = (s: Subscription) => paymentOf(s, { amount: nextPaymentAmount(s.amount, endAfterOf(s), s), currency: s.currency });

  /**
   * Throws the refusal the subscription's next payment would meet before any provider is called
   * (a payment method or provider that cannot take its currency and amount…): the check its charge
   * makes (checkPaymentMethodCharge), on the subscription as `tx` reads it. A change checks the row
   * it wrote, under its lock, so no other change slips between the check and the write.
   */
  const checkNextPayment = (tx: Prisma.TransactionClient, account: Account, s: Subscription) =>
    charges.checkPaymentMethodCharge(account, nextPayment(s), { subscriptionId: s.id }, tx);

  /**
   * Runs `call`, which makes (or finishes) the charge `chargeId`, and reads the charge it left;
   * null when the payment was refused before a charge was stored (a removed payment method…). An
   * error that is no refusal, with no charge stored, is the database failing: the job runs again.
   */
  async function charging(chargeId: string, call: () => Promise<unknown>): Promise<Charge | null> {
    const error = await call().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    const charge = await db.charge.findUnique({ where: { id: chargeId } });
    if (error instanceof ApiError) logger.info({ chargeId, code: error.code }, 'subscription payment refused');
    else if (error !== undefined && !charge) throw error;
    return charge;
  }

  const bill: JobHandler = async (payload, ctx) => {
    const job = payload as unknown as BillingJob;
    const s = await db.subscription.findUnique({ where: { id: job.subscriptionId }, include: { account: true } });
    if (!s) return;
    const chargeId = chargeIdOf(job);
    // A charge made by an earlier run of this try that stopped before recording it is settled now.
    let charge = await db.charge.findUnique({ where: { id: chargeId } });
    if (!charge) {
      if (!awaits(s, job)) return;
      // Amount, currency and payment method are the row read above, as one: a change that commits
      // meanwhile applies from the next payment (docs/decisions.md#subscriptions).
      const payment = nextPayment(s);
      charge = await charging(chargeId, () => charges.createPaymentMethodCharge(s.account, payment, { chargeId, subscriptionId: s.id }));
    } else if (charge.status === 'PROCESSING' && charge.paymentType === 'CARD') {
      // That run died during the provider call: its last attempt again under its key, with the same
      // money, on the card that attempt went to (whatever changed since), so the payer pays at most
      // once (stored.ts resumePaymentMethodCharge).
      const payment = paymentOf(s, charge);
      charge = await charging(chargeId, () => charges.resumePaymentMethodCharge(s.account, payment, chargeId));
    }
    // Held for staff, its outcome unknown at a provider that cannot take a call twice: neither paid
    // nor failed until they settle it (docs/outcome-unknown.md). Looked at again hourly, for as long
    // as it takes, by a job of its own (this one is done), never billed again meanwhile.
    // The next look commits with this one's end, under a key of its own number: a run of this job
    // again (its worker killed after this) makes no second chain of looks.
    if (charge?.status === 'PROCESSING' && (await db.unknownOutcome.count({ where: { chargeId, resolvedAt: null } })) > 0) {
      const runAt = new Date(clock.now().getTime() + HELD_RECHECK_MS);
      const look: BillingJob = { ...job, looks: (job.looks ?? 0) + 1 };
      const dedupeKey = `subscription:${s.id}:${job.dueAt}:${job.tries}:held:${look.looks}`;
      await db.$transaction(async (tx) => {
        await ctx.complete(tx);
        await jobs.enqueue(BILLING_QUEUE, { ...look }, { runAt, dedupeKey, maxAttempts: BILLING_ATTEMPTS, group: s.accountId, tx });
      });
      return;
    }
    // Still PROCESSING: a debit waiting for its settling job, or a resumption the provider did not answer.
    if (charge?.status === 'PROCESSING') throw new Error(`charge ${chargeId} is still being made`);
    const paid = charge && charge.status !== 'FAILED' ? charge : undefined;

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

  return { schedule, statusChanged, checkNextPayment, jobHandlers: { [BILLING_QUEUE]: bill } };
}
