import { randomBytes } from 'node:crypto';
import { dueDate, type BillingInterval } from '@gateway/core';
import { startFakeNab, type FakeNab } from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NAB_CREDENTIALS, NAB_SDK_PROVIDER } from './real-providers';
import {
  card,
  createAccount,
  moneyAtAcquirer,
  startTestGateway,
  within,
  type ApiResponse,
  type TestAccount,
  type TestGateway,
} from './harness';
import { STEADY, subscriptionsOf } from './subscription-support';
import { expectSigned, startReceiver, type Receiver } from './webhook-receiver';

/**
 * Subscriptions over REST, billed by the scheduler under a test clock: a year of payments runs in
 * seconds. Each test cancels what it leaves Active, so later jumps of the clock bill only its own.
 * Crashes and concurrent gateways are in subscription-crash.test.ts.
 */
let t: TestGateway;
let a: TestAccount;
let api: ReturnType<typeof subscriptionsOf>;
let receiver: Receiver;
/** NAB Transact, a provider type that takes AUD only: a payment method that cannot pay other currencies. */
let nab: FakeNab;
let now = new Date('2027-01-31T09:00:30Z');
const clock = { now: () => new Date(now) };
const DECLINED = '4000000000009995';

beforeAll(async () => {
  nab = await startFakeNab({ merchantId: NAB_CREDENTIALS.MerchantId, password: NAB_CREDENTIALS.Password });
  t = await startTestGateway({ clock, providerEndpoints: { nab_transact: nab.url } });
  a = await createAccount(t, [STEADY]);
  api = subscriptionsOf(a);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
  await nab.close();
});

const runDue = () => t.gateway.worker.runDue();

/** Moves the clock to `to` and runs every job that falls due. */
async function advanceTo(to: Date) {
  now = to;
  await runDue();
}

const hours = (n: number) => new Date(now.getTime() + n * 3_600_000);
const days = (n: number) => hours(24 * n);
const scheduleOf = (body: Record<string, unknown>) => ({
  startDate: new Date(String(body.startDate)),
  interval: body.interval as BillingInterval,
  frequency: Number(body.frequency),
});

/** The acquirer stops keeping the payment method's card, as when the payer closes the account. */
async function forgetAtAcquirer(method: Record<string, unknown> | undefined) {
  const forgotten = await fetch(`${t.gateway.simulatorUrl}/v1/cards/${String(method?.providerPaymentMethodId)}`, {
    method: 'DELETE',
    headers: { 'idempotency-key': randomBytes(8).toString('hex') },
  });
  expect(forgotten.status).toBe(200);
}

async function cancel(...ids: string[]) {
  for (const id of ids) expect((await a.api.delete(`/subscription/${id}`)).status).toBe(200);
}

describe('a monthly subscription', () => {
  it('bills a year from the 31st, on the last day of shorter months, each charge linked to it; then is cancelled', async () => {
    const { id, body } = await api.subscribe({
      amount: '25',
      currency: 'aud',
      interval: 'Month',
      Frequency: 1,
      metadata: { plan: 'gold' },
    });
    expect(body).toEqual({
      subscriptionId: id,
      paymentMethodId: expect.any(String),
      amount: 25,
      currency: 'AUD',
      interval: 'Month',
      frequency: 1,
      createdDate: '2027-01-31T09:00:30.000Z',
      startDate: '2027-01-31T09:00:30.000Z',
      endAfter: null,
      retry: null,
      webhook: null,
      status: 'Active',
      metadata: { plan: 'gold' },
    });
    await runDue();
    const schedule = scheduleOf(body);
    for (let n = 1; n < 12; n += 1) await advanceTo(dueDate(schedule, n));

    const charges = await api.chargesOf(id);
    expect(charges.map((c) => String(c.successDate).slice(0, 10))).toEqual([
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
    ]);
    expect(charges.every((c) => c.subscriptionId === id && c.status === 'SUCCESS' && c.amount === 25)).toBe(true);

    const cancelled = await a.api.delete(`/subscription/${id}`);
    expect(cancelled).toMatchObject({ status: 200, body: { subscriptionId: id, status: 'Cancelled' } });
    expect((await a.api.delete(`/subscription/${id}`)).body.status).toBe('Cancelled');
    await advanceTo(dueDate(schedule, 12));
    expect(await api.chargesOf(id)).toHaveLength(12);
  });
});

describe('payments that fell due while no gateway ran', () => {
  it('are made when one runs again, each once, and the schedule goes on from the start date', async () => {
    const { id, body } = await api.subscribe({ amount: 7, interval: 'Week', frequency: 2 });
    await runDue();
    const schedule = scheduleOf(body);
    await advanceTo(new Date(dueDate(schedule, 3).getTime() + 5 * 3_600_000));
    const caughtUp = await api.chargesOf(id);
    expect(caughtUp).toHaveLength(4);
    expect(new Set(caughtUp.map((c) => c.chargeId)).size).toBe(4);
    expect(caughtUp.every((c) => c.status === 'SUCCESS' && c.amount === 7)).toBe(true);

    await advanceTo(new Date(dueDate(schedule, 4).getTime() - 1000));
    expect(await api.chargesOf(id)).toHaveLength(4);
    await advanceTo(dueDate(schedule, 4));
    const charges = await api.chargesOf(id);
    expect(charges).toHaveLength(5);
    expect(charges[4]?.successDate).toBe(dueDate(schedule, 4).toISOString());
    await cancel(id);
  });
});

describe('endAfter', () => {
  it('completes after a count, at an amount (the last payment reduced to the remainder), or before a date', async () => {
    const webhook = { url: receiver.url('/subscription/own'), authorization: 'Bearer s3cret' };
    const byCount = await api.subscribe({ endAfter: { count: 3, amount: null, date: null }, webhook });
    const byAmount = await api.subscribe({ amount: 30, EndAfter: { Amount: 100, Count: 0 } });
    const endDate = new Date(days(2).getTime() + 3_600_000);
    const byDate = await api.subscribe({ amount: 5, endAfter: { date: endDate.getTime() } });
    expect(byCount.body.webhook).toEqual({ url: webhook.url, authorization: '********' });
    expect(byCount.body.endAfter).toEqual({ count: 3, amount: null, date: null });
    expect(byAmount.body.endAfter).toEqual({ count: null, amount: 100, date: null });
    expect(byDate.body.endAfter).toEqual({ count: null, amount: null, date: endDate.toISOString() });
    await runDue();
    const start = now;
    for (let day = 1; day <= 4; day += 1) await advanceTo(new Date(start.getTime() + day * 86_400_000));

    const counted = await api.chargesOf(byCount.id);
    expect(counted.map((c) => c.amount)).toEqual([10, 10, 10]);
    expect((await api.chargesOf(byAmount.id)).map((c) => c.amount)).toEqual([30, 30, 30, 10]);
    expect((await api.chargesOf(byDate.id)).map((c) => c.amount)).toEqual([5, 5, 5]);
    for (const { id } of [byCount, byAmount, byDate]) expect(await api.statusOf(id)).toBe('Complete');

    // The subscription's webhook is told of its status changes and of each of its payments, signed.
    while ((await runDue()) > 0);
    const told = receiver.at('/subscription/own');
    expect(
      told.map(({ meta, data }) => [meta.type, meta.eventType, String(data.chargeId ?? data.subscriptionId), data.status]).sort(),
    ).toEqual(
      [
        ...counted.map((c) => ['transaction', 'transaction.status.changed', c.chargeId, 'SUCCESS']),
        ['subscription', 'subscription.status.changed', byCount.id, 'Complete'],
      ].sort(),
    );
    const signingKey = await t.gateway.services.webhooks.signingKey({ id: a.accountId });
    for (const request of told) {
      expectSigned(request, signingKey);
      expect(request.headers.authorization).toBe('Bearer s3cret');
    }
    const db = t.gateway.database.prisma;
    const events = await db.webhookEvent.findMany({
      where: { resourceId: { in: [byCount.id, ...counted.map((c) => String(c.chargeId))] } },
    });
    expect(JSON.stringify(events)).not.toContain('s3cret');
    expect(
      events.filter((e) => e.type === 'Transaction').every((e) => (e.data as { subscriptionId: string }).subscriptionId === byCount.id),
    ).toBe(true);
  });

  it('refuses an end date before the first payment', async () => {
    const { body, status } = await a.api.post('/subscription/payment_method', {
      paymentMethodId: (await api.savedCard()).paymentMethodId,
      amount: 10,
      startDate: days(10).toISOString(),
      endAfter: { date: days(5).toISOString() },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 90, details: { 'endAfter.date': expect.any(String) }, resource: '/subscription/payment_method' });
  });
});

describe('failed payments', () => {
  it('are retried every frequency × interval up to the maximum, then the subscription is suspended', async () => {
    const declined = await api.savedCard(DECLINED);
    const retried = await api.subscribe({
      paymentMethodId: declined.paymentMethodId,
      retry: { maximum: 2, interval: 'Hour', frequency: 6 },
    });
    const noRetry = await api.subscribe({ paymentMethodId: declined.paymentMethodId, Retry: null });
    const start = now;
    await runDue();
    expect(await api.statusOf(noRetry.id)).toBe('Suspended');
    expect(await api.chargesOf(noRetry.id)).toMatchObject([{ status: 'FAILED', subscriptionId: noRetry.id }]);

    expect(await api.statusOf(retried.id)).toBe('Active');
    await advanceTo(new Date(start.getTime() + 6 * 3_600_000 - 60_000));
    expect(await api.chargesOf(retried.id)).toHaveLength(1);
    await advanceTo(new Date(start.getTime() + 6 * 3_600_000));
    expect(await api.chargesOf(retried.id)).toHaveLength(2);
    expect(await api.statusOf(retried.id)).toBe('Active');
    await advanceTo(new Date(start.getTime() + 12 * 3_600_000));
    const charges = await api.chargesOf(retried.id);
    expect(charges.map((c) => c.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(new Set(charges.map((c) => c.chargeId)).size).toBe(3);
    expect(await api.statusOf(retried.id)).toBe('Suspended');
    await advanceTo(days(3));
    expect(await api.chargesOf(retried.id)).toHaveLength(3);
  });

  it('retried in days: a later success is followed at once by the payments that fell due meanwhile', async () => {
    const { id, body, method } = await api.subscribe({ retry: { maximum: 3, interval: 'Day', frequency: 2 } });
    await runDue();
    await forgetAtAcquirer(method);
    const schedule = scheduleOf(body);
    await advanceTo(dueDate(schedule, 1));
    expect((await api.chargesOf(id)).map((c) => c.status)).toEqual(['SUCCESS', 'FAILED']);
    // The merchant moves the subscription to a card that works; the retry, two days later, pays
    // day 1's payment, and days 2 and 3 follow at once.
    const replacement = await api.savedCard();
    const moved = await a.api.put(`/subscription/${id}`, { paymentMethodId: replacement.paymentMethodId });
    expect(moved.body).toMatchObject({ paymentMethodId: replacement.paymentMethodId, status: 'Active' });
    await advanceTo(new Date(dueDate(schedule, 3).getTime() - 1000));
    expect((await api.chargesOf(id)).map((c) => c.status)).toEqual(['SUCCESS', 'FAILED']);
    await advanceTo(dueDate(schedule, 3));
    const charges = await api.chargesOf(id);
    expect(charges.map((c) => [c.status, (c.paymentInformation as { paymentMethodId: string }).paymentMethodId])).toEqual([
      ['SUCCESS', method?.paymentMethodId],
      ['FAILED', method?.paymentMethodId],
      ['SUCCESS', replacement.paymentMethodId],
      ['SUCCESS', replacement.paymentMethodId],
      ['SUCCESS', replacement.paymentMethodId],
    ]);
    expect(await api.statusOf(id)).toBe('Active');
    await advanceTo(new Date(dueDate(schedule, 4).getTime() - 1000));
    expect(await api.chargesOf(id)).toHaveLength(5);
    await cancel(id);
  });

  it('of a card the acquirer stopped keeping: retried, then suspended', async () => {
    const { id, method } = await api.subscribe({ interval: 'Week', retry: { maximum: 1, interval: 'Day' } });
    await runDue();
    expect(await api.chargesOf(id)).toMatchObject([{ status: 'SUCCESS' }]);
    await forgetAtAcquirer(method);
    await advanceTo(days(7));
    expect(await api.statusOf(id)).toBe('Active');
    await advanceTo(days(1));
    expect((await api.chargesOf(id)).map((c) => c.status)).toEqual(['SUCCESS', 'FAILED', 'FAILED']);
    expect(await api.statusOf(id)).toBe('Suspended');
  });
});

describe('a bank-account subscription', () => {
  it('debits on the schedule; a payment counts once the bank accepts the debit', async () => {
    const bankPaymentInformation = { bankCode: '062-000', accountNumber: '12345678', accountName: 'Ann Payer' };
    const saved = await a.api.post('/payment_method/bank_account', { providerId: a.providerIds[0], bankPaymentInformation });
    expect(saved.status).toBe(201);
    const { id, body } = await api.subscribe({ paymentMethodId: saved.body.paymentMethodId, interval: 'Week', endAfter: { count: 2 } });
    await runDue();
    expect(await api.chargesOf(id)).toMatchObject([
      { status: 'PENDING', paymentInformation: { type: 'BANK_ACCOUNT' }, subscriptionId: id },
    ]);
    await advanceTo(dueDate(scheduleOf(body), 1));
    const charges = await api.chargesOf(id);
    expect(charges).toHaveLength(2);
    expect(charges.every((c) => c.status === 'PENDING' || c.status === 'SUCCESS')).toBe(true);
    expect(await api.statusOf(id)).toBe('Complete');
  });
});

describe('status changes', () => {
  it('suspend, resume and cancel; a finished subscription is never reopened (400, 90); each change is an event', async () => {
    const { id } = await api.subscribe({ startDate: days(400).toISOString(), webhook: { url: 'https://example.com/status' } });
    const steps: Array<[unknown, number, string?]> = [
      ['Suspended', 200, 'Suspended'],
      ['SUSPENDED', 200, 'Suspended'],
      ['Active', 200, 'Active'],
      [3, 200, 'Suspended'],
      ['Complete', 400],
      [1, 200, 'Active'],
      [0, 400],
      [2, 200, 'Cancelled'],
      ['Active', 400],
      ['Suspended', 400],
      ['Complete', 400],
      ['cancelled', 200, 'Cancelled'],
    ];
    for (const [status, code, answered] of steps) {
      const { status: http, body } = await api.setStatus(id, status);
      expect([status, http]).toEqual([status, code]);
      if (answered) expect(body.status).toBe(answered);
      else expect(body).toMatchObject({ code: 90, resource: `/subscription/${id}/status` });
    }
    const events = await t.gateway.database.prisma.webhookEvent.findMany({ where: { resourceId: id }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => (e.data as { status: string }).status)).toEqual(['Suspended', 'Active', 'Suspended', 'Active', 'Cancelled']);
  });

  it('a suspended subscription takes no payments and resumes at the next due date, without catching up', async () => {
    const { id, body } = await api.subscribe({ interval: 'Month' });
    await runDue();
    expect((await api.setStatus(id, 'Suspended')).body.status).toBe('Suspended');
    const schedule = scheduleOf(body);
    for (let n = 1; n <= 3; n += 1) await advanceTo(dueDate(schedule, n));
    await advanceTo(hours(1));
    expect(await api.chargesOf(id)).toHaveLength(1);

    expect((await api.setStatus(id, 'active')).body.status).toBe('Active');
    await runDue();
    expect(await api.chargesOf(id)).toHaveLength(1);
    await advanceTo(dueDate(schedule, 4));
    const charges = await api.chargesOf(id);
    expect(charges).toHaveLength(2);
    expect(charges[1]?.successDate).toBe(dueDate(schedule, 4).toISOString());
    await cancel(id);
  });

  it('a subscription suspended after failed payments can be resumed', async () => {
    const declined = await api.savedCard(DECLINED);
    const { id, body } = await api.subscribe({ paymentMethodId: declined.paymentMethodId, interval: 'Week' });
    await runDue();
    expect(await api.statusOf(id)).toBe('Suspended');
    expect((await a.api.put(`/subscription/${id}`, { paymentMethodId: (await api.savedCard()).paymentMethodId })).body.status).toBe(
      'Suspended',
    );
    expect((await api.setStatus(id, 'Active')).body.status).toBe('Active');
    await advanceTo(dueDate(scheduleOf(body), 1));
    expect((await api.chargesOf(id)).map((c) => c.status)).toEqual(['FAILED', 'SUCCESS']);
    await cancel(id);
  });
});

describe('PUT /subscription/{id}', () => {
  it('replaces endAfter, retry and webhook; keeps amount and frequency sent as 0 and what is absent', async () => {
    const { id } = await api.subscribe({
      amount: 20,
      interval: 'Month',
      frequency: 2,
      startDate: days(30).toISOString(),
      endAfter: { count: 12 },
      retry: { maximum: 3, interval: 'Hour', frequency: 4 },
      webhook: { url: 'https://example.com/hook' },
      metadata: { plan: 'silver' },
    });
    const dotNet = await a.api.put(`/subscription/${id}`, { Amount: 0, Frequency: 0, Interval: 'Day' });
    expect(dotNet.status).toBe(200);
    expect(dotNet.body).toMatchObject({ amount: 20, frequency: 2, interval: 'Day', endAfter: null, retry: null, webhook: null });
    expect(dotNet.body.metadata).toEqual({ plan: 'silver' });

    const java = await a.api.put(`/subscription/${id}`, {
      amount: '35.5',
      currency: null,
      interval: 'Week',
      frequency: 1,
      endAfter: { count: null, amount: '500', date: null },
      retry: { maximum: 1, interval: 'Hour', frequency: 2 },
      webhook: null,
      metadata: { plan: 'gold' },
    });
    expect(java.body).toMatchObject({
      amount: 35.5,
      interval: 'Week',
      frequency: 1,
      endAfter: { amount: 500, count: null, date: null },
      retry: { maximum: 1, interval: 'Hour', frequency: 2 },
      webhook: null,
      status: 'Active',
      metadata: { plan: 'gold' },
    });
    expect((await a.api.get(`/subscription/${id}`)).body).toEqual(java.body);

    const php = await a.api.put(`/subscription/${id}`, { Amount: 12, Webhook: { Url: 'https://example.com/other', Authorization: 'k' } });
    expect(php.body).toMatchObject({
      amount: 12,
      interval: 'Week',
      frequency: 1,
      endAfter: null,
      retry: null,
      webhook: { url: 'https://example.com/other', authorization: '********' },
    });
    expect(await api.setStatus(id, 'Suspended')).toMatchObject({ status: 200 });
    expect((await a.api.put(`/subscription/${id}`, { amount: 13 })).body).toMatchObject({ amount: 13, status: 'Suspended' });
    await cancel(id);
  });

  // The public SDKs' update tests (payfurl/javasdk SubscriptionApiTest.testUpdateSubscription,
  // payfurl/phpsdk SubscriptionTest.testUpdateSubscription), as their clients put them on the wire.
  it('changes the currency with the amount, as the Java and PHP clients send it: the next payment is in it', async () => {
    const method = await api.savedCard();
    const java = await a.api.post('/subscription/payment_method', {
      paymentMethodId: method.paymentMethodId,
      amount: '100',
      currency: 'USD',
      interval: 'Month',
      frequency: 1,
      startDate: null,
      endAfter: { count: 2, amount: null, date: null },
      retry: { maximum: 3, frequency: 1, interval: 'Day' },
      webhook: { url: 'https://example.com/webhoo', authorization: 'secret' },
      metadata: null,
    });
    expect(java.body).toMatchObject({ currency: 'USD', amount: 100, status: 'Active' });
    const javaId = String(java.body.subscriptionId);
    await runDue();
    const changed = await a.api.put(`/subscription/${javaId}`, {
      amount: '200',
      currency: 'AUD',
      interval: 'Month',
      frequency: 0,
      endAfter: null,
      retry: null,
      webhook: null,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      subscriptionId: javaId,
      amount: 200,
      currency: 'AUD',
      interval: 'Month',
      frequency: 1,
      endAfter: null,
      retry: null,
      webhook: null,
      status: 'Active',
    });

    const php = await a.api.post('/subscription/payment_method', {
      EndAfter: { Count: 2 },
      Retry: { Maximum: 3, Frequency: 1, Interval: 'Day' },
      Webhook: { Url: 'https://example.com/webhoo', Authorization: 'secret' },
      PaymentMethodId: method.paymentMethodId,
      Amount: 100,
      Currency: 'USD',
      Interval: 'Month',
      Frequency: 1,
    });
    const phpId = String(php.body.subscriptionId);
    await runDue();
    const phpChanged = await a.api.put(`/subscription/${phpId}`, {
      EndAfter: { Count: 3 },
      Retry: { Maximum: 4, Frequency: 5, Interval: 'Hour' },
      Webhook: { Url: 'https://example.com/webhoo2', Authorization: 'secret2' },
      Amount: 200,
      Currency: 'AUD',
      Interval: 'Day',
      Frequency: 2,
    });
    expect(phpChanged.body).toMatchObject({
      subscriptionId: phpId,
      amount: 200,
      currency: 'AUD',
      interval: 'Day',
      frequency: 2,
      endAfter: { count: 3 },
      retry: { maximum: 4, frequency: 5, interval: 'Hour' },
      // The PHP test expects "secret2" back: a webhook's authorization is answered masked (docs/decisions.md#subscriptions).
      webhook: { url: 'https://example.com/webhoo2', authorization: '********' },
    });

    // Each one's next payment (a month on for both: the payment already scheduled keeps its date) is in AUD, at the acquirer too.
    await advanceTo(dueDate(scheduleOf(java.body), 1));
    for (const id of [javaId, phpId]) {
      const charges = await api.chargesOf(id);
      expect(
        charges.slice(0, 2).map((c) => [c.status, c.amount, c.currency]),
        id,
      ).toEqual([
        ['SUCCESS', 100, 'USD'],
        ['SUCCESS', 200, 'AUD'],
      ]);
      expect(await moneyAtAcquirer(t, charges[1]?.chargeId)).toEqual([{ amount: '20000', currency: 'AUD' }]);
    }
    await cancel(javaId, phpId);
  });

  it('changes the currency only with an amount in it, counting endAfter.amount afresh in it', async () => {
    const { id } = await api.subscribe({ amount: 30, currency: 'USD', interval: 'Month', endAfter: { amount: 100 } });
    await runDue();
    expect(await a.api.put(`/subscription/${id}`, { currency: 'AUD', endAfter: { amount: 100 } })).toMatchObject({
      status: 400,
      body: { code: 90, details: { amount: 'Required when the currency changes' } },
    });
    expect((await a.api.get(`/subscription/${id}`)).body).toMatchObject({ currency: 'USD', amount: 30 });
    // Paid so far: 30 USD, which are no AUD: four payments of 30 AUD, the last reduced to 10, make the 100 AUD.
    const changed = await a.api.put(`/subscription/${id}`, { currency: 'AUD', amount: 30, endAfter: { amount: 100 } });
    expect(changed.body).toMatchObject({ currency: 'AUD', amount: 30, endAfter: { amount: 100 }, status: 'Active' });
    const monthly = scheduleOf(changed.body);
    for (let n = 1; n <= 5; n += 1) await advanceTo(dueDate(monthly, n));
    const charges = await api.chargesOf(id);
    expect(charges.map((c) => [c.amount, c.currency])).toEqual([
      [30, 'USD'],
      [30, 'AUD'],
      [30, 'AUD'],
      [30, 'AUD'],
      [10, 'AUD'],
    ]);
    expect(await api.statusOf(id)).toBe('Complete');
  });

  it('keeps the payment already due, and bills on the new schedule after it, counted from the start date', async () => {
    const { id, body } = await api.subscribe({ interval: 'Month' });
    await runDue();
    const monthly = scheduleOf(body);
    await a.api.put(`/subscription/${id}`, { frequency: 2, amount: 15 });
    for (let n = 1; n <= 5; n += 1) await advanceTo(dueDate(monthly, n));
    const charges = await api.chargesOf(id);
    expect(charges.map((c) => [c.successDate, c.amount])).toEqual([
      [dueDate(monthly, 0).toISOString(), 10],
      [dueDate(monthly, 1).toISOString(), 15],
      [dueDate(monthly, 2).toISOString(), 15],
      [dueDate(monthly, 4).toISOString(), 15],
    ]);
    await cancel(id);
  });

  it('completes a subscription whose new endAfter is already reached; a finished one cannot change', async () => {
    const { id } = await api.subscribe({ interval: 'Month' });
    await runDue();
    const ended = await a.api.put(`/subscription/${id}`, { endAfter: { count: 1 } });
    expect(ended.body).toMatchObject({ status: 'Complete', interval: 'Month' });
    expect(await a.api.put(`/subscription/${id}`, { amount: 5 })).toMatchObject({ status: 400, body: { code: 90 } });
    expect(await a.api.delete(`/subscription/${id}`)).toMatchObject({ status: 400, body: { code: 90 } });
    expect(await api.setStatus(id, 'Active')).toMatchObject({ status: 400, body: { code: 90 } });
  });
});

describe('PUT /subscription/{id}: the payee of the next payment', () => {
  let b: TestAccount;
  let bApi: ReturnType<typeof subscriptionsOf>;
  let nabProviderId: string;

  beforeAll(async () => {
    b = await createAccount(t, [STEADY]);
    bApi = subscriptionsOf(b);
    const created = await b.api.post('/provider', NAB_SDK_PROVIDER);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    nabProviderId = String(created.body.providerId);
  });

  /** A PayTo agreement in AUD, of at most `maximumAmount` AUD a payment. */
  async function agreement(maximumAmount: number) {
    const { status, body } = await b.api.post('/payment_method/payto', {
      providerId: b.providerIds[0],
      payerName: 'Pat Payer',
      payerPayIdDetails: { payId: 'pat@example.com', payIdType: 'EMAIL' },
      description: 'Rent',
      maximumAmount,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return String(body.paymentMethodId);
  }

  /** A card saved at `providerId`, charged instead of it after a retryable failure when `fallbackPaymentMethodId` is given. */
  async function savedCard(providerId: string, number?: string, fallbackPaymentMethodId?: string) {
    const { status, body } = await b.api.post('/payment_method/card', {
      providerId,
      paymentInformation: card(number),
      fallbackPaymentMethodId,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return String(body.paymentMethodId);
  }

  /** The error body (wire.md §0.7) of a refusal with `code`, for the request to `resource`. */
  function expectRefused(response: ApiResponse, code: number, resource: string) {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body).toMatchObject({ code, isRetryable: false, resource, gatewayCode: null, gatewayMessage: null });
    expect(typeof response.body.message).toBe('string');
  }

  it('is checked as its charge will check it: the PayTo agreement’s maximum too, at the creation and at the change', async () => {
    const rent = await agreement(500);
    const later = days(30).toISOString();
    const over = await b.api.post('/subscription/payment_method', { paymentMethodId: rent, amount: 600, startDate: later });
    expectRefused(over, 24, '/subscription/payment_method');
    expect(over.body.message).toContain('at most 500 AUD');
    const { id } = await bApi.subscribe({ paymentMethodId: rent, amount: 500, startDate: later });
    expectRefused(await b.api.put(`/subscription/${id}`, { amount: 600 }), 24, `/subscription/${id}`);
    // The charge the next payment makes answers the same.
    expectRefused(await b.api.post('/charge/payment_method', { paymentMethodId: rent, amount: 600 }), 24, '/charge/payment_method');
    expect((await b.api.get(`/subscription/${id}`)).body).toMatchObject({ amount: 500, currency: 'AUD', status: 'Active' });
    // A removed payment method: its payments are refused (73), so is a new amount; what pays nothing new is not checked.
    expect((await b.api.delete(`/payment_method/${rent}`)).status).toBe(200);
    expectRefused(await b.api.put(`/subscription/${id}`, { amount: 400 }), 73, `/subscription/${id}`);
    expect((await b.api.put(`/subscription/${id}`, { amount: 500, metadata: { plan: 'kept' } })).status).toBe(200);
    await b.api.delete(`/subscription/${id}`);
  });

  it('is the payment method billing charges: a fallback that cannot take the currency is skipped, not refused', async () => {
    // A card at NAB (AUD only) whose fallback is a card at the simulated acquirer (every currency):
    // its payments are refused in USD before any fallback is tried, so the change is too.
    const anyCurrency = await savedCard(b.providerIds[0]!);
    const atNab = await savedCard(nabProviderId, undefined, anyCurrency);
    const onNab = await bApi.subscribe({ paymentMethodId: atNab, startDate: days(30).toISOString() });
    const refused = await b.api.put(`/subscription/${onNab.id}`, { amount: 10, currency: 'USD' });
    expectRefused(refused, 29, `/subscription/${onNab.id}`);
    expect(refused.body.message).toContain('nab_transact');
    expectRefused(
      await b.api.post('/charge/payment_method', { paymentMethodId: atNab, amount: 10, currency: 'USD' }),
      29,
      '/charge/payment_method',
    );
    expect((await b.api.get(`/subscription/${onNab.id}`)).body).toMatchObject({ currency: 'AUD', paymentMethodId: atNab });

    // The other way round: a card failing with a retryable error, whose fallback is at NAB. In AUD
    // the fallback pays; in USD billing skips it, so the change is taken and the payment fails.
    const failing = await savedCard(b.providerIds[0]!, '4000000000000119', await savedCard(nabProviderId));
    const { id } = await bApi.subscribe({ paymentMethodId: failing, interval: 'Day' });
    await runDue();
    const changed = await b.api.put(`/subscription/${id}`, { amount: 10, currency: 'USD' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await advanceTo(days(1));
    const [inAud, inUsd] = await bApi.chargesOf(id);
    expect(inAud).toMatchObject({ status: 'SUCCESS', currency: 'AUD', providerId: nabProviderId });
    expect(inUsd).toMatchObject({
      status: 'FAILED',
      currency: 'USD',
      providerId: b.providerIds[0],
      paymentInformation: { paymentMethodId: failing },
    });
    expect(nab.transactions().filter((x) => x.purchaseOrderNo.startsWith(`${String(inUsd?.chargeId)}:`))).toEqual([]);
    expect(await bApi.statusOf(id)).toBe('Suspended');
    await b.api.delete(`/subscription/${onNab.id}`);
    await b.api.delete(`/subscription/${id}`);
  });

  // Needs a database server: two requests waiting on one row lock.
  it.runIf(inject('databaseServerUrl'))(
    'is read under the lock of the change: a change of currency racing a change of payment method leaves a payee that can take it',
    async () => {
      const anyCurrency = await savedCard(b.providerIds[0]!);
      const inAud = await agreement(500);
      const { id } = await bApi.subscribe({ paymentMethodId: anyCurrency, startDate: days(30).toISOString() });
      const db = t.gateway.database.prisma;
      const lockWaits = async () =>
        Number(
          (
            await db.$queryRaw<[{ n: bigint }]>`
              SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
          )[0].n,
        );
      // The row is held while both requests arrive, the change of payment method first: each then
      // waits for the lock, having read whatever it reads before taking it.
      let release: () => void = () => undefined;
      let held: () => void = () => undefined;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${id} FOR UPDATE`;
          held();
          await new Promise<void>((resolve) => (release = resolve));
        },
        { timeout: 30_000 },
      );
      await holding;
      const moved = b.api.put(`/subscription/${id}`, { paymentMethodId: inAud });
      await within(10_000, async () => (await lockWaits()) === 1);
      const inUsd = b.api.put(`/subscription/${id}`, { amount: 10, currency: 'USD' });
      await within(10_000, async () => (await lockWaits()) === 2);
      release();
      await holder;
      const answers = await Promise.all([moved, inUsd]);

      // One of them is refused (29: the PayTo agreement is in AUD), whichever came second; the other is what the subscription is.
      expect(answers.map((x) => x.status).sort()).toEqual([200, 400]);
      const refused = answers.find((x) => x.status === 400)!;
      expect(refused.body).toMatchObject({ code: 29, message: expect.stringContaining('The PayTo agreement is in AUD') });
      const kept = (await b.api.get(`/subscription/${id}`)).body;
      expect(kept).toEqual(answers.find((x) => x.status === 200)!.body);
      expect([kept.paymentMethodId, kept.currency]).not.toEqual([inAud, 'USD']);
      await b.api.delete(`/subscription/${id}`);
    },
  );
});

describe('a change of currency while a payment is at the acquirer', () => {
  it('leaves that payment in the amount and currency it started with, uncounted in the new currency; the next ones are in the new', async () => {
    const b = await createAccount(t, [STEADY, { ...STEADY, name: 'Slow acquirer', latency: { minMs: 1500, maxMs: 1500 } }]);
    const bApi = subscriptionsOf(b);
    const slowCard = await bApi.savedCard(undefined, b.providerIds[1]);
    const { id } = await bApi.subscribe({ paymentMethodId: slowCard.paymentMethodId, amount: 10, startDate: hours(1).toISOString() });
    now = hours(1);
    const due = now;
    const billing = runDue();
    const db = t.gateway.database.prisma;
    const inFlight = () => db.charge.findFirst({ where: { subscriptionId: id } });
    await within(10_000, async () => (await inFlight())?.status === 'PROCESSING');

    // 50 USD in all: two payments of 25 USD, whatever the payment in flight brings in AUD.
    const changed = await b.api.put(`/subscription/${id}`, { amount: 25, currency: 'USD', endAfter: { amount: 50 } });
    expect(changed.body).toMatchObject({ amount: 25, currency: 'USD', status: 'Active' });
    // The change did not wait for the acquirer.
    expect((await inFlight())?.status).toBe('PROCESSING');
    await billing;

    for (let n = 1; n <= 3; n += 1) await advanceTo(new Date(due.getTime() + n * 86_400_000));
    const charges = await bApi.chargesOf(id);
    expect(charges.map((c) => [c.status, c.amount, c.currency])).toEqual([
      ['SUCCESS', 10, 'AUD'],
      ['SUCCESS', 25, 'USD'],
      ['SUCCESS', 25, 'USD'],
    ]);
    // At the acquirer too: never the old amount in the new currency, nor the new amount in the old.
    const atAcquirer = await Promise.all(charges.map((c) => moneyAtAcquirer(t, c.chargeId)));
    expect(atAcquirer).toEqual([
      [{ amount: '1000', currency: 'AUD' }],
      [{ amount: '2500', currency: 'USD' }],
      [{ amount: '2500', currency: 'USD' }],
    ]);
    expect(await bApi.statusOf(id)).toBe('Complete');
  });
});

describe('GET /subscription', () => {
  it('filters by amount, currency, status and dates (any key casing), newest first, paged', async () => {
    const b = await createAccount(t, [STEADY, { ...STEADY, name: 'US dollars', currency: 'USD' }]);
    const usd = await b.api.post('/payment_method/card', { providerId: b.providerIds[1], paymentInformation: card() });
    const later = days(365).toISOString();
    const created: string[] = [];
    for (const fields of [{ amount: 100 }, { amount: 200 }, { amount: 50, currency: 'USD', paymentMethodId: usd.body.paymentMethodId }]) {
      now = new Date(now.getTime() + 1000);
      created.push((await subscriptionsOf(b).subscribe({ ...fields, startDate: later })).id);
    }
    const [first, second, third] = created;
    await b.api.put(`/subscription/${first}/status`, { status: 'Suspended' });
    const ids = async (query: string) => {
      const { status, body } = await b.api.get<{ subscriptions: Array<{ subscriptionId: string }> }>(`/subscription${query}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return body.subscriptions.map((s) => s.subscriptionId);
    };
    expect(await ids('')).toEqual([third, second, first]);
    expect(await ids('?amountGreaterThan=150')).toEqual([second]);
    expect(await ids('?AmountLessThan=100&AmountGreaterThan=49.99')).toEqual([third]);
    expect(await ids('?amountGreaterThan=200')).toEqual([]);
    expect(await ids('?currency=aud')).toEqual([second, first]);
    expect(await ids('?Status=Suspended')).toEqual([first]);
    expect(await ids('?sortBy=Currency')).toEqual([second, first, third]);
    expect(await ids('?SortBy=Status')).toEqual([third, second, first]);
    expect(await ids('?sortBy=Date')).toEqual([third, second, first]);
    const secondCreated = String((await b.api.get(`/subscription/${second}`)).body.createdDate);
    const dotNetDate = secondCreated.replace('T', ' ').slice(0, 19);
    expect(await ids(`?addedAfter=${encodeURIComponent(dotNetDate)}`)).toEqual([third]);
    expect(await ids(`?AddedBefore=${encodeURIComponent(secondCreated)}`)).toEqual([first]);
    const page = await b.api.get('/subscription?limit=1&skip=1');
    expect(page.body).toMatchObject({ limit: 1, skip: 1, count: 3, subscriptions: [{ subscriptionId: second }] });
    expect((await b.api.get('/subscription')).body).toMatchObject({ limit: 20, skip: 0, count: 3 });
    for (const id of created) await b.api.delete(`/subscription/${id}`);
  });
});

describe('other accounts and bad input', () => {
  it('answers another account’s subscription as unknown (404, 104)', async () => {
    const { id, method } = await api.subscribe({ startDate: days(400).toISOString() });
    const other = await createAccount(t, undefined, { throughCommand: true });
    for (const answer of [
      await other.api.get(`/subscription/${id}`),
      await other.api.put(`/subscription/${id}`, { amount: 1 }),
      await other.api.put(`/subscription/${id}/status`, { status: 'Suspended' }),
      await other.api.delete(`/subscription/${id}`),
    ]) {
      expect(answer).toMatchObject({ status: 404, body: { code: 104 } });
    }
    expect((await other.api.get('/subscription')).body.count).toBe(0);
    const foreign = await other.api.post('/subscription/payment_method', { paymentMethodId: method?.paymentMethodId, amount: 10 });
    expect(foreign).toMatchObject({ status: 404, body: { code: 56 } });
    expect(await api.statusOf(id)).toBe('Active');
    await cancel(id);
  });

  it('refuses bad input with the error body, never a 5xx', async () => {
    const { paymentMethodId } = await api.savedCard();
    const { id } = await api.subscribe({ paymentMethodId, startDate: days(400).toISOString() });
    const create = (fields: Record<string, unknown>) =>
      a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10, ...fields });
    const cases: Array<[Promise<{ status: number; body: Record<string, unknown> }>, number]> = [
      [create({ interval: 'Fortnight' }), 90],
      [create({ amount: -5 }), 74],
      [create({ amount: 0 }), 74],
      [create({ amount: 10.001 }), 2],
      [create({ amount: '99999999999999999999' }), 25],
      // The subscription's own currency sets the decimals.
      [create({ currency: 'JPY', amount: 10.5 }), 2],
      [create({ currency: 'XXX' }), 29],
      [create({ retry: { maximum: 2, interval: 'Minute' } }), 90],
      [create({ retry: { interval: 'Hour' } }), 90],
      [create({ frequency: 1.5 }), 90],
      [create({ frequency: 1001 }), 90],
      [create({ endAfter: { count: -1 } }), 90],
      [create({ endAfter: { amount: -1 } }), 74],
      [create({ startDate: 8.64e15 }), 90],
      [create({ startDate: 'soon' }), 90],
      [create({ endAfter: { date: -8.64e15 } }), 90],
      [create({ webhook: { url: 'ftp://example.com' } }), 90],
      [create({ metadata: { plan: 1 } }), 90],
      [a.api.post('/subscription/payment_method', { amount: 10 }), 90],
      [a.api.post('/subscription/payment_method', [paymentMethodId]), 90],
      [a.api.put(`/subscription/${id}`, { currency: 'USD' }), 90],
      [a.api.put(`/subscription/${id}`, { currency: 'XXX', amount: 5 }), 29],
      [a.api.put(`/subscription/${id}`, { currency: 'JPY', amount: 10.5 }), 2],
      [a.api.put(`/subscription/${id}`, { amount: -1 }), 74],
      [a.api.put(`/subscription/${id}`, { interval: 'Hour' }), 90],
      [api.setStatus(id, 7), 90],
      [api.setStatus(id, 'Paused'), 90],
      [a.api.put(`/subscription/${id}/status`, {}), 90],
      [a.api.get('/subscription?status=Paused'), 90],
      [a.api.get('/subscription?limit=0'), 90],
      [a.api.get('/subscription?addedAfter=8640000000000000'), 90],
      [a.api.get('/subscription?amountGreaterThan=lots'), 2],
    ];
    for (const [request, code] of cases) {
      const { status, body } = await request;
      expect([status, body.code], JSON.stringify(body)).toEqual([400, code]);
      expect(body).toMatchObject({ message: expect.any(String), isRetryable: false, type: expect.stringContaining(`#${code}`) });
    }
    expect(await a.api.get('/subscription/nope')).toMatchObject({ status: 404, body: { code: 104, resource: '/subscription/nope' } });
    expect(await api.statusOf(id)).toBe('Active');
    await cancel(id);
  });
});
