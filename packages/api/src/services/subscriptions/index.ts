import {
  ApiError,
  billingEnded,
  canChangeStatus,
  newId,
  nextDueDate,
  notFound,
  parseDecimal,
  type Currency,
  type SubscriptionStatus,
} from '@gateway/core';
import { Prisma, type Account, type Subscription } from '@gateway/db';
import type { NewSubscription, SubscriptionChanges, SubscriptionView } from '../../schemas/subscription';
import { amountRange, dateRange, paging } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey } from '../idempotency';
import { requireAmount, requireCurrency } from '../money';
import type { PaymentMethodService } from '../payment-methods';
import { requireProvider } from '../providers/selection';
import { sealWebhook } from '../webhooks';
import { createBilling, endAfterOf, lockSubscription, scheduleOf, stopped, type BillingDeps } from './billing';
import { toSubscriptionView } from './view';

export interface SubscriptionSearch {
  amountGreaterThan?: string | number;
  amountLessThan?: string | number;
  currency?: string;
  status?: SubscriptionStatus;
  addedAfter?: Date;
  addedBefore?: Date;
  sortBy?: 'None' | 'Date' | 'Status' | 'Currency';
  limit?: number;
  skip?: number;
}

const subscriptionNotFound = () => notFound('InvalidSubscriptionId', 'Subscription');

/** An amount where 0 means absent: the .NET client sends 0 for amounts it was not given. */
function optionalAmount(value: string | number | undefined, currency: Currency, field: string): bigint | undefined {
  if (value === undefined || parseDecimal(value)?.units === 0n) return undefined;
  return requireAmount(value, currency, field);
}

/** The terms a create sets and an update replaces (with the webhook): absent means none. */
function terms(input: Pick<NewSubscription, 'endAfter' | 'retry'>, currency: Currency) {
  const { endAfter, retry } = input;
  return {
    endAfterCount: endAfter?.count || null,
    endAfterAmount: optionalAmount(endAfter?.amount, currency, 'endAfter.amount') ?? null,
    endAfterDate: endAfter?.date ?? null,
    retryMaximum: retry?.maximum ?? null,
    retryInterval: retry ? (retry.interval ?? 'Day') : null,
    retryFrequency: retry ? retry.frequency || 1 : null,
  };
}

/** Whether the subscription's payments change who pays them or what they are (what a change must check). */
const paysDifferently = (before: Subscription, after: Subscription) =>
  after.paymentMethodId !== before.paymentMethodId || after.amount !== before.amount || after.currency !== before.currency;

/**
 * Subscriptions: recurring payments of a saved payment method (docs/api.md#subscriptions, the
 * rules in docs/decisions.md#subscriptions). Every change locks the row, so the scheduler
 * (billing.ts) and merchants' requests apply one after another.
 */
export function createSubscriptionService(
  deps: Dependencies,
  { paymentMethods, ...billingDeps }: BillingDeps & { paymentMethods: Pick<PaymentMethodService, 'activeMethod'> },
) {
  const { db, clock, config } = deps;
  const billing = createBilling(deps, billingDeps);

  /** An active payment method of the account that can be charged, with its provider. */
  async function chargeableMethod(account: Account, paymentMethodId: string) {
    const method = await paymentMethods.activeMethod(account, paymentMethodId);
    if (!method.providerId) throw new ApiError('InvalidPaymentMethod', { message: 'The payment method cannot be charged' });
    return { method, provider: await requireProvider(db, account.id, method.providerId) };
  }

  /**
   * Applies `decide` to the subscription under its row lock. A change of payment method, amount or
   * currency of a subscription that still bills is checked on the row as written, in the same
   * transaction, as its next payment's charge will check it (billing.checkNextPayment): its refusal
   * (400) undoes the change, and no other change can come between the check and the write.
   */
  async function change(account: Account, id: string, decide: (s: Subscription) => Prisma.SubscriptionUpdateInput) {
    const updated = await db.$transaction(async (tx) => {
      const s = await lockSubscription(tx, account.id, id);
      if (!s) throw subscriptionNotFound();
      const next = await tx.subscription.update({ where: { id }, data: decide(s) });
      if (next.status !== 'Complete' && paysDifferently(s, next)) await billing.checkNextPayment(tx, account, next);
      if (next.status !== s.status) await billing.statusChanged(tx, next);
      return next;
    });
    return toSubscriptionView(updated);
  }

  return {
    jobHandlers: billing.jobHandlers,

    async create(account: Account, input: NewSubscription, heldKey?: HeldKey): Promise<SubscriptionView> {
      const { method, provider } = await chargeableMethod(account, input.paymentMethodId);
      const currency = requireCurrency(input.currency ?? provider.currency);
      const amount = requireAmount(input.amount, currency);
      const now = clock.now();
      const startDate = input.startDate ?? now;
      // A start in the past is billed once now; the schedule then goes on from startDate.
      const firstDue = startDate > now ? startDate : now;
      const fields = terms(input, currency);
      if (fields.endAfterDate && fields.endAfterDate < firstDue) {
        throw new ApiError('ValidationError', {
          message: 'endAfter.date is before the first payment',
          details: { 'endAfter.date': 'Before the first payment' },
        });
      }
      const id = heldKey?.resourceId ?? newId();
      const subscription = await db.$transaction(async (tx) => {
        const row = await tx.subscription.create({
          data: {
            id,
            accountId: account.id,
            paymentMethodId: method.id,
            amount,
            currency: currency.code,
            interval: input.interval ?? 'Day',
            frequency: input.frequency || 1,
            startDate,
            ...fields,
            webhook: sealWebhook(config.keyring, 'Subscription', id, input.webhook),
            metadata: input.metadata,
            createdDate: now,
            nextBillingAt: firstDue,
          },
        });
        // Refused as its first payment would be (a currency the provider does not take…), not at it.
        await billing.checkNextPayment(tx, account, row);
        await billing.schedule(tx, row);
        await bindKey(tx, heldKey, { type: 'subscription', id });
        return row;
      });
      return toSubscriptionView(subscription);
    },

    async get(account: Account, id: string): Promise<SubscriptionView> {
      const s = await db.subscription.findFirst({ where: { id, accountId: account.id } });
      if (!s) throw subscriptionNotFound();
      return toSubscriptionView(s);
    },

    /**
     * Replaces the terms (endAfter, retry, webhook: absent = none); amount, currency (with an
     * amount), interval, frequency, metadata and the payment method (our extension) stay when absent
     * (amount and frequency also when 0). The payment method must be able to make the next payment
     * now, not at the next billing (change). The payment already scheduled keeps its date (and is
     * made in the new currency, unless already in flight); the ones after it follow the new
     * schedule, still counted from startDate.
     */
    async update(account: Account, id: string, changes: SubscriptionChanges): Promise<SubscriptionView> {
      return change(account, id, (s) => {
        if (s.status === 'Cancelled' || s.status === 'Complete') {
          throw new ApiError('ValidationError', { message: `A ${s.status} subscription cannot be changed` });
        }
        const currency = requireCurrency(changes.currency ?? s.currency);
        const newCurrency = currency.code !== s.currency;
        const newAmount = optionalAmount(changes.amount, currency, 'amount');
        if (newCurrency && newAmount === undefined) {
          throw new ApiError('ValidationError', {
            message: `An amount in ${currency.code} is required to change the currency`,
            details: { amount: 'Required when the currency changes' },
          });
        }
        const amount = newAmount ?? s.amount;
        const fields = terms(changes, currency);
        // endAfter.amount counts the payments made in the subscription's currency: a new one starts from nothing.
        const progress = newCurrency ? { paidAmount: 0n } : {};
        const data = {
          amount,
          currency: currency.code,
          ...progress,
          ...(changes.paymentMethodId !== undefined && { paymentMethodId: changes.paymentMethodId }),
          interval: changes.interval ?? s.interval,
          frequency: changes.frequency || s.frequency,
          ...fields,
          webhook: sealWebhook(config.keyring, 'Subscription', id, changes.webhook) ?? Prisma.DbNull,
          ...(changes.metadata && { metadata: changes.metadata }),
        };
        const end = { count: fields.endAfterCount, amount: fields.endAfterAmount, date: fields.endAfterDate };
        return billingEnded(end, { ...s, ...progress }, s.nextBillingAt) ? { ...data, ...stopped('Complete') } : data;
      });
    },

    /** Suspends, resumes or cancels. Resuming bills from the next due date on: missed payments are not caught up. */
    setStatus(account: Account, id: string, status: SubscriptionStatus): Promise<SubscriptionView> {
      return change(account, id, (s) => {
        if (s.status === status) return {};
        if (!canChangeStatus(s.status, status)) {
          throw new ApiError('ValidationError', { message: `A ${s.status} subscription cannot become ${status}` });
        }
        if (status !== 'Active') return stopped(status);
        const next = nextDueDate(scheduleOf(s), clock.now());
        return billingEnded(endAfterOf(s), s, next) ? stopped('Complete') : { status, nextBillingAt: next, failedTries: 0 };
      });
    },

    /** Newest first unless sorted by status or currency; `count` is the total. */
    async search(account: Account, input: SubscriptionSearch) {
      const where: Prisma.SubscriptionWhereInput = {
        accountId: account.id,
        ...dateRange(input, 'createdDate'),
        ...amountRange(input.amountGreaterThan, input.amountLessThan),
        ...(input.currency && { currency: input.currency }),
        ...(input.status && { status: input.status }),
      };
      const newestFirst: Prisma.SubscriptionOrderByWithRelationInput[] = [{ createdDate: 'desc' }, { id: 'desc' }];
      const orderBy =
        input.sortBy === 'Status'
          ? [{ status: 'asc' as const }, ...newestFirst]
          : input.sortBy === 'Currency'
            ? [{ currency: 'asc' as const }, ...newestFirst]
            : newestFirst;
      const { take, skip } = paging(input);
      const [count, rows] = await Promise.all([db.subscription.count({ where }), db.subscription.findMany({ where, orderBy, take, skip })]);
      return { limit: take, skip, count, subscriptions: rows.map(toSubscriptionView) };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
