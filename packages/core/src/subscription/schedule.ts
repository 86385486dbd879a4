import { createHash } from 'node:crypto';

/**
 * Subscription rules (docs/decisions.md#subscriptions): statuses, the billing schedule, when
 * billing ends, and the id of each payment's charge. Pure: the API's services and the scheduler
 * job apply them.
 */

/** In the .NET client's order: it sends the status of a status update as 0–3. */
export const SUBSCRIPTION_STATUSES = ['Complete', 'Active', 'Cancelled', 'Suspended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const BILLING_INTERVALS = ['Day', 'Week', 'Month', 'Year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const RETRY_INTERVALS = ['Hour', 'Day'] as const;
export type RetryInterval = (typeof RETRY_INTERVALS)[number];

/** Status changes a merchant may ask for; billing alone completes a subscription or suspends it after failures. */
const MERCHANT_CHANGES: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  Active: ['Suspended', 'Cancelled'],
  Suspended: ['Active', 'Cancelled'],
  Cancelled: [],
  Complete: [],
};

export function canChangeStatus(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return MERCHANT_CHANGES[from].includes(to);
}

export interface BillingSchedule {
  startDate: Date;
  interval: BillingInterval;
  frequency: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Average lengths, only to guess a payment number before stepping to the exact one. */
const APPROX_MS: Record<BillingInterval, number> = { Day: DAY_MS, Week: 7 * DAY_MS, Month: 30.436875 * DAY_MS, Year: 365.2425 * DAY_MS };

/** `months` calendar months after `date` (UTC), on the same day or the month's last day when it is shorter. */
function addMonths(date: Date, months: number): Date {
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const result = new Date(date);
  result.setUTCFullYear(date.getUTCFullYear(), month, Math.min(date.getUTCDate(), lastDay));
  return result;
}

/**
 * When payment `n` (0 = the first) is due: startDate + n × frequency × interval, always counted
 * from startDate (a payment on the 31st comes back on the 31st after a 30th or a 28th).
 */
export function dueDate({ startDate, interval, frequency }: BillingSchedule, n: number): Date {
  const steps = n * frequency;
  switch (interval) {
    case 'Day':
      return new Date(startDate.getTime() + steps * DAY_MS);
    case 'Week':
      return new Date(startDate.getTime() + steps * 7 * DAY_MS);
    case 'Month':
      return addMonths(startDate, steps);
    case 'Year':
      return addMonths(startDate, steps * 12);
  }
}

/** The first due date of the schedule strictly after `after`. */
export function nextDueDate(schedule: BillingSchedule, after: Date): Date {
  const elapsed = after.getTime() - schedule.startDate.getTime();
  let n = Math.max(0, Math.floor(elapsed / (APPROX_MS[schedule.interval] * schedule.frequency)));
  while (n > 0 && dueDate(schedule, n - 1) > after) n -= 1;
  while (dueDate(schedule, n) <= after) n += 1;
  return dueDate(schedule, n);
}

export interface RetryPolicy {
  maximum: number;
  interval: RetryInterval;
  frequency: number;
}

export function retryDelayMs({ interval, frequency }: RetryPolicy): number {
  return frequency * (interval === 'Hour' ? HOUR_MS : DAY_MS);
}

export interface EndAfter {
  count: number | null;
  /** Minor units. */
  amount: bigint | null;
  date: Date | null;
}

export interface BillingProgress {
  paymentCount: number;
  /** Minor units. */
  paidAmount: bigint;
}

/** Billing is over once the payments reach the count or the amount, or the next one would be due after the date. */
export function billingEnded(end: EndAfter, progress: BillingProgress, nextDue: Date | null): boolean {
  return (
    (end.count !== null && progress.paymentCount >= end.count) ||
    (end.amount !== null && progress.paidAmount >= end.amount) ||
    (end.date !== null && nextDue !== null && nextDue > end.date)
  );
}

/** The amount of the next payment: the last one before endAfter.amount is reduced to what remains. */
export function nextPaymentAmount(amount: bigint, end: EndAfter, progress: BillingProgress): bigint {
  if (end.amount === null) return amount;
  const remaining = end.amount - progress.paidAmount;
  return remaining < amount ? remaining : amount;
}

/** One try at one payment: the payment due at `dueAt`, after `tries` failed tries of it. */
export interface PaymentTry {
  subscriptionId: string;
  dueAt: Date;
  tries: number;
}

/**
 * The id of the charge of a try, the same every time it is computed: a second run of the try (a
 * crashed or duplicated job, another gateway) finds that charge instead of making one, so a
 * payment is never charged twice. 32 hex characters, like every charge id.
 */
export function paymentChargeId({ subscriptionId, dueAt, tries }: PaymentTry): string {
  return createHash('sha256').update(`subscription:${subscriptionId}:${dueAt.toISOString()}:${tries}`).digest('hex').slice(0, 32);
}
