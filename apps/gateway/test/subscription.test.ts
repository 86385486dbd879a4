import { randomBytes } from 'node:crypto';
import { dueDate } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, createAccount, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';

/**
 * Subscriptions over REST, billed by the scheduler under a test clock: a year of payments runs in
 * seconds. Due times are at :30 past the minute: see advanceTo.
 */
let t: TestGateway;
let a: TestAccount;
let now = new Date('2027-01-31T09:00:30Z');
const clock = { now: () => new Date(now) };
const DECLINED = '4000000000009995';

beforeAll(async () => {
  t = await startTestGateway({ clock });
  a = await createAccount(t);
});
afterAll(() => t.close());

const runDue = () => t.gateway.worker.runDue();

/**
 * Moves the clock to `to` and runs what falls due. The minute's maintenance runs first, a second
 * earlier, on its own: charges are dated by the database's clock, so its abandoned-charge sweep,
 * run at a jump of the test clock, would take a charge in flight for an abandoned one.
 */
async function advanceTo(to: Date) {
  now = new Date(to.getTime() - 1000);
  await runDue();
  now = to;
  await runDue();
}

const hours = (n: number) => new Date(now.getTime() + n * 3_600_000);
const days = (n: number) => hours(24 * n);

async function savedCard(account = a, number = VISA) {
  const { status, body } = await account.api.post('/payment_method/card', {
    providerId: account.providerIds[0],
    paymentInformation: card(number),
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function subscribe(fields: Record<string, unknown>, account = a) {
  const method = fields.paymentMethodId ? undefined : await savedCard(account);
  const { status, body } = await account.api.post('/subscription/payment_method', {
    paymentMethodId: method?.paymentMethodId,
    amount: 10,
    interval: 'Day',
    frequency: 1,
    ...fields,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return { id: String(body.subscriptionId), body, method };
}

async function chargesOf(subscriptionId: string, account = a) {
  const { body } = await account.api.get<{ charges: Array<Record<string, unknown>> }>(`/charge?SubscriptionId=${subscriptionId}&Limit=100`);
  return body.charges.reverse();
}

const statusOf = async (id: string, account = a) => (await account.api.get(`/subscription/${id}`)).body.status;

describe('a monthly subscription', () => {
  it('bills a year from the 31st, on the last day of shorter months, each charge linked to it; then is cancelled', async () => {
    const { id, body } = await subscribe({ amount: '25', currency: 'aud', interval: 'Month', Frequency: 1, metadata: { plan: 'gold' } });
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
    const schedule = { startDate: new Date(body.startDate as string), interval: 'Month' as const, frequency: 1 };
    for (let n = 1; n < 12; n += 1) await advanceTo(dueDate(schedule, n));
    await runDue();

    const charges = await chargesOf(id);
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
    const reopen = await a.api.put(`/subscription/${id}/status`, { status: 'Active' });
    expect(reopen).toMatchObject({ status: 400, body: { code: 90 } });
    await advanceTo(dueDate(schedule, 12));
    expect(await chargesOf(id)).toHaveLength(12);
  });
});

describe('endAfter', () => {
  it('completes after a count, at an amount (the last payment reduced to the remainder), or before a date', async () => {
    const webhook = { url: 'https://example', authorization: 'Bearer s3cret' };
    const byCount = await subscribe({ endAfter: { count: 3, amount: null, date: null }, webhook });
    const byAmount = await subscribe({ amount: 30, EndAfter: { Amount: 100, Count: 0 } });
    const byDate = await subscribe({ amount: 5, endAfter: { date: days(2).getTime() + 3_600_000 } });
    expect(byCount.body.webhook).toEqual({ url: 'https://example', authorization: '********' });
    expect(byCount.body.endAfter).toEqual({ count: 3, amount: null, date: null });
    expect(byAmount.body.endAfter).toEqual({ count: null, amount: 100, date: null });
    await runDue();
    const start = now;
    for (let day = 1; day <= 4; day += 1) await advanceTo(new Date(start.getTime() + day * 86_400_000));

    expect((await chargesOf(byCount.id)).map((c) => c.amount)).toEqual([10, 10, 10]);
    expect((await chargesOf(byAmount.id)).map((c) => c.amount)).toEqual([30, 30, 30, 10]);
    expect((await chargesOf(byDate.id)).map((c) => c.amount)).toEqual([5, 5, 5]);
    for (const { id } of [byCount, byAmount, byDate]) expect(await statusOf(id)).toBe('Complete');

    const events = await t.gateway.database.prisma.webhookEvent.findMany({ where: { resourceId: byCount.id } });
    expect(events).toMatchObject([{ type: 'Subscription', eventType: 'subscription.status.changed', data: { status: 'Complete' } }]);
    expect(JSON.stringify(events)).not.toContain('s3cret');
  });

  it('refuses an end date before the first payment', async () => {
    const { body, status } = await a.api.post('/subscription/payment_method', {
      paymentMethodId: (await savedCard()).paymentMethodId,
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
    const declined = await savedCard(a, DECLINED);
    const retried = await subscribe({ paymentMethodId: declined.paymentMethodId, retry: { maximum: 2, interval: 'Hour', frequency: 6 } });
    const noRetry = await subscribe({ paymentMethodId: declined.paymentMethodId, Retry: null });
    const start = now;
    await runDue();
    expect(await statusOf(noRetry.id)).toBe('Suspended');
    expect(await chargesOf(noRetry.id)).toMatchObject([{ status: 'FAILED', subscriptionId: noRetry.id }]);

    expect(await statusOf(retried.id)).toBe('Active');
    await advanceTo(new Date(start.getTime() + 6 * 3_600_000 - 60_000));
    expect(await chargesOf(retried.id)).toHaveLength(1);
    await advanceTo(new Date(start.getTime() + 6 * 3_600_000));
    expect(await chargesOf(retried.id)).toHaveLength(2);
    expect(await statusOf(retried.id)).toBe('Active');
    await advanceTo(new Date(start.getTime() + 12 * 3_600_000));
    const charges = await chargesOf(retried.id);
    expect(charges.map((c) => c.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(new Set(charges.map((c) => c.chargeId)).size).toBe(3);
    expect(await statusOf(retried.id)).toBe('Suspended');
    await advanceTo(days(3));
    expect(await chargesOf(retried.id)).toHaveLength(3);
  });

  it('of a card the acquirer stopped keeping: retried, then suspended', async () => {
    const { id, method } = await subscribe({ interval: 'Week', retry: { maximum: 1, interval: 'Day' } });
    await runDue();
    expect(await chargesOf(id)).toMatchObject([{ status: 'SUCCESS' }]);
    const deleted = await fetch(`${t.gateway.simulatorUrl}/v1/cards/${String(method?.providerPaymentMethodId)}`, {
      method: 'DELETE',
      headers: { 'idempotency-key': randomBytes(8).toString('hex') },
    });
    expect(deleted.status).toBe(200);
    await advanceTo(days(7));
    expect(await statusOf(id)).toBe('Active');
    await advanceTo(days(1));
    expect((await chargesOf(id)).map((c) => c.status)).toEqual(['SUCCESS', 'FAILED', 'FAILED']);
    expect(await statusOf(id)).toBe('Suspended');
  });
});

describe('suspending and resuming', () => {
  it('stops billing while suspended and resumes at the next due date, without catching up (.NET integer status)', async () => {
    const { id, body } = await subscribe({ interval: 'Month' });
    await runDue();
    const suspended = await a.api.put(`/subscription/${id}/status`, { Status: 3 });
    expect(suspended).toMatchObject({ status: 200, body: { status: 'Suspended' } });
    const schedule = { startDate: new Date(body.startDate as string), interval: 'Month' as const, frequency: 1 };
    for (let n = 1; n <= 3; n += 1) await advanceTo(dueDate(schedule, n));
    await advanceTo(hours(1));
    expect(await chargesOf(id)).toHaveLength(1);

    const resumed = await a.api.put(`/subscription/${id}/status`, { status: 'active' });
    expect(resumed.body.status).toBe('Active');
    await runDue();
    expect(await chargesOf(id)).toHaveLength(1);
    await advanceTo(dueDate(schedule, 4));
    const charges = await chargesOf(id);
    expect(charges).toHaveLength(2);
    expect(charges[1]?.successDate).toBe(dueDate(schedule, 4).toISOString());
    expect((await a.api.put(`/subscription/${id}/status`, { status: 1 })).body.status).toBe('Active');
  });
});

describe('PUT /subscription/{id}', () => {
  it('replaces endAfter, retry and webhook, defaults interval to Day, keeps amount and frequency sent as 0', async () => {
    const { id } = await subscribe({
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
    });
    expect(java.body).toMatchObject({
      amount: 35.5,
      interval: 'Week',
      frequency: 1,
      endAfter: { amount: 500, count: null, date: null },
      retry: { maximum: 1, interval: 'Hour', frequency: 2 },
      webhook: null,
      status: 'Active',
    });
    expect((await a.api.get(`/subscription/${id}`)).body).toEqual(java.body);
  });

  it('completes a subscription whose new endAfter is already reached; a finished one cannot change', async () => {
    const { id } = await subscribe({ interval: 'Month' });
    await runDue();
    const ended = await a.api.put(`/subscription/${id}`, { interval: 'Month', endAfter: { count: 1 } });
    expect(ended.body.status).toBe('Complete');
    expect(await a.api.put(`/subscription/${id}`, { amount: 5 })).toMatchObject({ status: 400, body: { code: 90 } });
    expect(await a.api.delete(`/subscription/${id}`)).toMatchObject({ status: 400, body: { code: 90 } });
  });
});

describe('a billing job that dies after charging', () => {
  it('finds the charge when it runs again and never charges the payment twice', async () => {
    const { id } = await subscribe({ startDate: hours(2).toISOString() });
    const db = t.gateway.database.prisma;
    now = hours(2);
    const [job] = await db.job.findMany({
      where: { queue: 'subscription.bill', status: 'PENDING', dedupeKey: { startsWith: `subscription:${id}:` } },
    });
    const bill = t.gateway.services.jobHandlers['subscription.bill'];
    const lost = {
      jobId: job!.id,
      attempt: 1,
      signal: new AbortController().signal,
      complete: () => Promise.reject(new Error('lease lost')),
    };
    await expect(bill?.(job!.payload, lost)).rejects.toThrow('lease lost');
    expect(await chargesOf(id)).toMatchObject([{ status: 'SUCCESS' }]);
    expect((await db.subscription.findUniqueOrThrow({ where: { id } })).paymentCount).toBe(0);

    await advanceTo(new Date(now.getTime() + 1000));
    expect(await chargesOf(id)).toHaveLength(1);
    expect((await db.subscription.findUniqueOrThrow({ where: { id } })).paymentCount).toBe(1);
  });
});

describe('GET /subscription', () => {
  it('filters by amount, currency, status and dates (any key casing), newest first, paged', async () => {
    const b = await createAccount(t, [CHEAP_DOMESTIC, { ...CHEAP_DOMESTIC, name: 'US dollars', currency: 'USD' }]);
    const usd = await b.api.post('/payment_method/card', { providerId: b.providerIds[1], paymentInformation: card() });
    const later = days(365).toISOString();
    const created: string[] = [];
    for (const fields of [{ amount: 100 }, { amount: 200 }, { amount: 50, currency: 'USD', paymentMethodId: usd.body.paymentMethodId }]) {
      now = new Date(now.getTime() + 1000);
      created.push((await subscribe({ ...fields, startDate: later }, b)).id);
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
    expect(await ids('?currency=aud')).toEqual([second, first]);
    expect(await ids('?Status=Suspended')).toEqual([first]);
    expect(await ids('?sortBy=Currency')).toEqual([second, first, third]);
    const secondCreated = String((await b.api.get(`/subscription/${second}`)).body.createdDate);
    const dotNetDate = secondCreated.replace('T', ' ').slice(0, 19);
    expect(await ids(`?addedAfter=${encodeURIComponent(dotNetDate)}`)).toEqual([third]);
    expect(await ids(`?AddedBefore=${encodeURIComponent(secondCreated)}`)).toEqual([first]);
    const page = await b.api.get('/subscription?limit=1&skip=1');
    expect(page.body).toMatchObject({ limit: 1, skip: 1, count: 3, subscriptions: [{ subscriptionId: second }] });
  });
});

describe('other accounts and bad input', () => {
  it('answers another account’s subscription as unknown (404, 104)', async () => {
    const { id, method } = await subscribe({ startDate: days(400).toISOString() });
    const other = await createAccount(t);
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
    expect(await statusOf(id)).toBe('Active');
  });

  it('refuses bad input with the error body', async () => {
    const { paymentMethodId } = await savedCard();
    const { id } = await subscribe({ paymentMethodId, startDate: days(400).toISOString() });
    const cases: Array<[Promise<{ status: number; body: Record<string, unknown> }>, number]> = [
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10, interval: 'Fortnight' }), 90],
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: -5 }), 74],
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10.001 }), 2],
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10, currency: 'USD' }), 29],
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10, retry: { maximum: 2, interval: 'Minute' } }), 90],
      [a.api.post('/subscription/payment_method', { paymentMethodId, amount: 10, frequency: 1.5 }), 90],
      [a.api.put(`/subscription/${id}/status`, { status: 'Complete' }), 90],
      [a.api.put(`/subscription/${id}/status`, { status: 7 }), 90],
      [a.api.get('/subscription?status=Paused'), 90],
    ];
    for (const [request, code] of cases) {
      const { status, body } = await request;
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ code, message: expect.any(String), isRetryable: false, type: expect.stringContaining(`#${code}`) });
    }
    expect(await a.api.get('/subscription/nope')).toMatchObject({ status: 404, body: { code: 104, resource: '/subscription/nope' } });
  });
});
