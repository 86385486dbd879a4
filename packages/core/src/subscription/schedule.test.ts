import { describe, expect, it } from 'vitest';
import { billingEnded, canChangeStatus, dueDate, nextDueDate, nextPaymentAmount, paymentChargeId, type BillingSchedule } from './schedule';

const monthly: BillingSchedule = { startDate: new Date('2027-01-31T09:00:30Z'), interval: 'Month', frequency: 1 };
const iso = (d: Date) => d.toISOString().slice(0, 10);

describe('dueDate', () => {
  it('counts months from the start date, on the month’s last day when it is shorter, without drifting', () => {
    const dates = Array.from({ length: 14 }, (_, n) => iso(dueDate(monthly, n)));
    expect(dates).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
    ]);
    expect(dueDate(monthly, 3).toISOString()).toBe('2027-04-30T09:00:30.000Z');
  });

  it('multiplies the interval by the frequency', () => {
    const start = new Date('2028-02-29T00:00:00Z');
    expect(iso(dueDate({ startDate: start, interval: 'Year', frequency: 1 }, 1))).toBe('2029-02-28');
    expect(iso(dueDate({ startDate: start, interval: 'Year', frequency: 2 }, 2))).toBe('2032-02-29');
    expect(iso(dueDate({ startDate: start, interval: 'Week', frequency: 2 }, 1))).toBe('2028-03-14');
    expect(iso(dueDate({ startDate: start, interval: 'Day', frequency: 3 }, 10))).toBe('2028-03-30');
    expect(iso(dueDate({ startDate: start, interval: 'Month', frequency: 3 }, 4))).toBe('2029-02-28');
  });
});

describe('nextDueDate', () => {
  it('is the first due date strictly after the given time', () => {
    expect(nextDueDate(monthly, new Date('2026-05-01T00:00:00Z')).toISOString()).toBe('2027-01-31T09:00:30.000Z');
    expect(nextDueDate(monthly, new Date('2027-01-31T09:00:30Z')).toISOString()).toBe('2027-02-28T09:00:30.000Z');
    expect(nextDueDate(monthly, new Date('2027-03-31T09:00:29Z')).toISOString()).toBe('2027-03-31T09:00:30.000Z');
    expect(nextDueDate(monthly, new Date('2031-12-31T10:00:00Z')).toISOString()).toBe('2032-01-31T09:00:30.000Z');
    const daily: BillingSchedule = { startDate: new Date('2027-01-01T00:00:00Z'), interval: 'Day', frequency: 1 };
    expect(nextDueDate(daily, new Date('2027-01-05T12:00:00Z')).toISOString()).toBe('2027-01-06T00:00:00.000Z');
  });
});

describe('end of billing', () => {
  const none = { count: null, amount: null, date: null };

  it('ends at the count, at the amount, or when the next payment would be after the date', () => {
    expect(billingEnded(none, { paymentCount: 1000, paidAmount: 10n ** 9n }, new Date())).toBe(false);
    expect(billingEnded({ ...none, count: 3 }, { paymentCount: 3, paidAmount: 0n }, null)).toBe(true);
    expect(billingEnded({ ...none, amount: 100n }, { paymentCount: 4, paidAmount: 100n }, null)).toBe(true);
    const date = new Date('2027-06-01T00:00:00Z');
    expect(billingEnded({ ...none, date }, { paymentCount: 0, paidAmount: 0n }, date)).toBe(false);
    expect(billingEnded({ ...none, date }, { paymentCount: 0, paidAmount: 0n }, new Date('2027-06-01T00:00:01Z'))).toBe(true);
  });

  it('reduces the last payment to what remains of endAfter.amount', () => {
    expect(nextPaymentAmount(3000n, { ...none, amount: 10000n }, { paymentCount: 3, paidAmount: 9000n })).toBe(1000n);
    expect(nextPaymentAmount(3000n, { ...none, amount: 10000n }, { paymentCount: 1, paidAmount: 3000n })).toBe(3000n);
    expect(nextPaymentAmount(3000n, none, { paymentCount: 9, paidAmount: 27000n })).toBe(3000n);
  });
});

describe('status changes a merchant may ask for', () => {
  it('suspends, resumes and cancels; never reopens a finished subscription', () => {
    expect(canChangeStatus('Active', 'Suspended')).toBe(true);
    expect(canChangeStatus('Suspended', 'Active')).toBe(true);
    expect(canChangeStatus('Suspended', 'Cancelled')).toBe(true);
    expect(canChangeStatus('Active', 'Complete')).toBe(false);
    expect(canChangeStatus('Cancelled', 'Active')).toBe(false);
    expect(canChangeStatus('Complete', 'Cancelled')).toBe(false);
  });
});

describe('paymentChargeId', () => {
  it('is the same for a try every time, and differs between tries and payments', () => {
    const first = { subscriptionId: 'a'.repeat(32), dueAt: new Date('2027-01-31T09:00:30Z'), tries: 0 };
    const id = paymentChargeId(first);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(paymentChargeId({ ...first, dueAt: new Date('2027-01-31T09:00:30.000Z') })).toBe(id);
    const others = [
      paymentChargeId({ ...first, tries: 1 }),
      paymentChargeId({ ...first, dueAt: new Date('2027-02-28T09:00:30Z') }),
      paymentChargeId({ ...first, subscriptionId: 'b'.repeat(32) }),
    ];
    expect(new Set([id, ...others]).size).toBe(4);
  });
});
