import { paymentChargeId } from '@gateway/core';
import { startSimulator, type Simulator } from '@gateway/providers';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { card, createAccount, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';
import { STEADY, subscriptionsOf } from './subscription-support';

/**
 * A subscription's payment is charged, and counted, once whatever happens to the processes running
 * its billing job: a run that dies after charging or during the provider call, a lease that expires
 * while the first run is still at the acquirer, two gateways billing from one database at once.
 * Two gateways share one PostgreSQL database and one simulated acquirer (whose ledger shows every
 * authorisation it made).
 */
let simulator: Simulator;
let t: TestGateway;
let other: TestGateway;
let a: TestAccount;
let api: ReturnType<typeof subscriptionsOf>;
let now = new Date('2027-03-01T00:00:00Z');
const clock = { now: () => new Date(now) };

const SLOW = { ...STEADY, name: 'Slow acquirer', latency: { minMs: 1500, maxMs: 1500 } };
const hours = (n: number) => new Date(now.getTime() + n * 3_600_000);

const db = () => t.gateway.database.prisma;

/** The pending billing job of a subscription. */
async function pendingJob(subscriptionId: string) {
  const jobs = await db().job.findMany({
    where: { queue: 'subscription.bill', status: 'PENDING', dedupeKey: { startsWith: `subscription:${subscriptionId}:` } },
  });
  expect(jobs).toHaveLength(1);
  const job = jobs[0]!;
  const payload = job.payload as { subscriptionId: string; dueAt: string; tries: number };
  return { job, dueAt: new Date(payload.dueAt), chargeId: paymentChargeId({ ...payload, dueAt: new Date(payload.dueAt) }) };
}

/** Authorisations the acquirer made (and did not reverse) for the charge `chargeId`, any attempt. */
const live = (chargeId: string) =>
  simulator.ledger
    .authorisations()
    .filter((x) => x.idempotencyKey.startsWith(`${chargeId}:`) && (x.status === 'authorised' || x.status === 'captured'));

const progressOf = async (id: string) => {
  const { paymentCount, paidAmount, nextBillingAt } = await db().subscription.findUniqueOrThrow({ where: { id } });
  return { paymentCount, paidAmount, nextBillingAt };
};

describe.runIf(inject('databaseServerUrl'))('a payment is charged and counted once', () => {
  beforeAll(async () => {
    simulator = await startSimulator();
    t = await startTestGateway({ clock, simulatorUrl: simulator.url });
    // The second gateway opens the first one's database, with its keys.
    const [{ name }] = await t.gateway.database.prisma.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`;
    const databaseUrl = new URL(inject('databaseServerUrl'));
    databaseUrl.pathname = `/${name}`;
    const { keyring } = t.gateway.services.config;
    other = await startTestGateway({ clock, simulatorUrl: simulator.url, databaseUrl: databaseUrl.toString(), keyring });
    a = await createAccount(t, [STEADY, SLOW]);
    api = subscriptionsOf(a);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await simulator?.close();
  });

  it('when the run that charged died before recording it: the next run finds the charge', async () => {
    // Not yet due, so no worker takes the job while the test runs it by hand.
    const { id } = await api.subscribe({ startDate: hours(2).toISOString() });
    const { job, chargeId } = await pendingJob(id);
    const bill = t.gateway.services.jobHandlers['subscription.bill']!;
    const dying = { jobId: job.id, attempt: 1, signal: new AbortController().signal, complete: () => Promise.reject(new Error('died')) };
    await expect(bill(job.payload, dying)).rejects.toThrow('died');
    expect(await api.chargesOf(id)).toMatchObject([{ chargeId, status: 'SUCCESS' }]);
    expect((await progressOf(id)).paymentCount).toBe(0);

    now = hours(2);
    await t.gateway.worker.runDue();
    expect(await api.chargesOf(id)).toHaveLength(1);
    expect(live(chargeId)).toHaveLength(1);
    expect(await progressOf(id)).toMatchObject({ paymentCount: 1, paidAmount: 1000n });
    await a.api.delete(`/subscription/${id}`);
  });

  /** A card saved at the account's first provider (one the acquirer fails with a retryable 503, unless `number` is given), whose fallback is a card at its second. */
  async function cardWithFallback(account: TestAccount, number = '4000000000000119') {
    const fallback = await subscriptionsOf(account).savedCard(undefined, account.providerIds[1]);
    const first = await account.api.post('/payment_method/card', {
      providerId: account.providerIds[0],
      paymentInformation: card(number),
      fallbackPaymentMethodId: fallback.paymentMethodId,
    });
    expect(first.status).toBe(201);
    return { first: first.body, fallback };
  }

  /**
   * What a run of the subscription `id`'s first payment that died during the provider call leaves:
   * its charge PROCESSING, asked of the first of `routes` (saved cards, each the previous one's
   * fallback) and moved on to the last, whose payment the acquirer made and the run never heard of.
   */
  async function diedAtAcquirer(id: string, routes: Array<Record<string, unknown>>, { account = a, lastEnded = false } = {}) {
    const { chargeId } = await pendingJob(id);
    const last = routes.at(-1)!;
    await db().charge.create({
      data: {
        id: chargeId,
        accountId: account.accountId,
        providerId: String(last.providerId),
        paymentMethodId: String(last.paymentMethodId),
        subscriptionId: id,
        attemptCount: routes.length,
        status: 'PROCESSING',
        currency: 'AUD',
        amount: 1000n,
        paymentType: 'CARD',
        recurring: true,
      },
    });
    for (const [n, route] of routes.entries()) {
      const answer = await fetch(`${simulator.url}/v1/authorisations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `${chargeId}:${n + 1}` },
        body: JSON.stringify({
          amount: '1000',
          currency: 'AUD',
          capture: true,
          recurring: true,
          source: { type: 'stored_card', providerToken: route.providerPaymentMethodId },
        }),
      });
      // The last attempt is the one the run died in, unless it had ended too (before the run named the next).
      const ended = route !== last || lastEnded;
      expect(answer.status).toBe(ended ? 503 : 200);
      // An attempt the run moved on from was recorded before the next began.
      if (ended) {
        await db().chargeAttempt.create({
          data: {
            id: `${chargeId}-${n + 1}`,
            chargeId,
            providerId: String(route.providerId),
            errorCode: 34,
            errorMessage: 'Acquirer error',
            gatewayCode: '96',
            isRetryable: true,
          },
        });
      }
    }
    return chargeId;
  }

  it('when the run died during the provider call: the next run sends the same keys and takes the acquirer’s answer', async () => {
    const { id, method } = await api.subscribe({ startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [method!]);
    // The merchant changes the currency meanwhile: the payment under way keeps the money it began with.
    const changed = await a.api.put(`/subscription/${id}`, { amount: 20, currency: 'USD' });
    expect(changed.body).toMatchObject({ amount: 20, currency: 'USD' });

    // Hours later: the maintenance sweep, which fails charges abandoned in PROCESSING, leaves this one to its billing job.
    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await api.chargesOf(id)).toMatchObject([{ chargeId, status: 'SUCCESS', amount: 10, currency: 'AUD', subscriptionId: id }]);
    expect(live(chargeId).map((x) => [x.idempotencyKey, x.amount, x.currency])).toEqual([[`${chargeId}:1`, 1000n, 'AUD']]);
    expect((await progressOf(id)).paymentCount).toBe(1);
    await a.api.delete(`/subscription/${id}`);
  });

  it('when the run died during the provider call and the merchant moved the subscription to another card at another provider: the payment under way finishes on the card it began with', async () => {
    const { id, method } = await api.subscribe({ startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [method!]);
    const elsewhere = await api.savedCard(undefined, a.providerIds[1]);
    const changed = await a.api.put(`/subscription/${id}`, { paymentMethodId: elsewhere.paymentMethodId });
    expect(changed.status).toBe(200);

    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await api.chargesOf(id)).toMatchObject([
      { chargeId, status: 'SUCCESS', providerId: method!.providerId, paymentInformation: { paymentMethodId: method!.paymentMethodId } },
    ]);
    // One payment at the acquirer, on the card it was begun with: none on the new card's acquirer.
    expect(live(chargeId).map((x) => [x.idempotencyKey, x.amount])).toEqual([[`${chargeId}:1`, 1000n]]);
    expect((await progressOf(id)).paymentCount).toBe(1);
    await a.api.delete(`/subscription/${id}`);
  });

  it('when the run died during the fallback’s call, the first card having failed: only the fallback’s key goes again, to the card it went to, though that card was removed since', async () => {
    // The acquirer fails this card with a retryable 503: the charge moves on to its fallback.
    const { first: failing, fallback } = await cardWithFallback(a);
    const { id } = await api.subscribe({ paymentMethodId: failing.paymentMethodId, startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [failing, fallback]);
    expect((await a.api.delete(`/payment_method/${String(fallback.paymentMethodId)}`)).status).toBe(200);

    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await api.chargesOf(id)).toMatchObject([
      { chargeId, status: 'SUCCESS', providerId: fallback.providerId, paymentInformation: { paymentMethodId: fallback.paymentMethodId } },
    ]);
    expect(live(chargeId).map((x) => [x.idempotencyKey, x.amount])).toEqual([[`${chargeId}:2`, 1000n]]);
    // The first card's attempt, ended before the crash, is not made again: it is listed once.
    const [resumed] = await api.chargesOf(id);
    expect(resumed?.failedAttempts).toMatchObject([{ providerId: a.providerIds[0], gatewayCode: '96' }]);
    expect((await progressOf(id)).paymentCount).toBe(1);
    await a.api.delete(`/subscription/${id}`);
  });

  it('when the run died during the fallback’s call and the fallback’s provider was removed since: that attempt is reversed and the payment failed', async () => {
    const b = await createAccount(t, [STEADY, { ...STEADY, name: 'Removed later' }]);
    const own = subscriptionsOf(b);
    const { first: failing, fallback } = await cardWithFallback(b);
    const { id } = await own.subscribe({ paymentMethodId: failing.paymentMethodId, startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [failing, fallback], { account: b });
    expect(live(chargeId)).toHaveLength(1);
    expect((await b.api.delete(`/provider/${b.providerIds[1]}`)).status).toBe(200);

    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await own.chargesOf(id)).toMatchObject([{ chargeId, status: 'FAILED', providerId: b.providerIds[1] }]);
    // The fallback's payment, which nothing could finish any more, is reversed: the payer pays nothing.
    expect(live(chargeId)).toEqual([]);
    expect((await progressOf(id)).paymentCount).toBe(0);
    await b.api.delete(`/subscription/${id}`);
  });

  it('when the run died after the first card failed, before it named the fallback: it goes on to the fallback', async () => {
    const { first: failing, fallback } = await cardWithFallback(a);
    const { id } = await api.subscribe({ paymentMethodId: failing.paymentMethodId, startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [failing], { lastEnded: true });

    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await api.chargesOf(id)).toMatchObject([{ chargeId, status: 'SUCCESS', providerId: fallback.providerId }]);
    expect(live(chargeId).map((x) => x.idempotencyKey)).toEqual([`${chargeId}:2`]);
    // The first card's attempt had ended: it is not made again, and listed once.
    const [resumed] = await api.chargesOf(id);
    expect(resumed?.failedAttempts).toMatchObject([{ providerId: a.providerIds[0], gatewayCode: '96' }]);
    await a.api.delete(`/subscription/${id}`);
  });

  it('when the run died during the first card’s call and its fallback’s provider was removed since: the first card’s key goes again', async () => {
    const b = await createAccount(t, [STEADY, { ...STEADY, name: 'Removed later' }]);
    const own = subscriptionsOf(b);
    const { first } = await cardWithFallback(b, VISA);
    const { id } = await own.subscribe({ paymentMethodId: first.paymentMethodId, startDate: hours(1).toISOString() });
    const chargeId = await diedAtAcquirer(id, [first], { account: b });
    expect((await b.api.delete(`/provider/${b.providerIds[1]}`)).status).toBe(200);

    now = hours(3);
    await t.gateway.worker.runDue();
    expect(await own.chargesOf(id)).toMatchObject([{ chargeId, status: 'SUCCESS', providerId: b.providerIds[0] }]);
    expect(live(chargeId).map((x) => x.idempotencyKey)).toEqual([`${chargeId}:1`]);
    expect((await progressOf(id)).paymentCount).toBe(1);
    await b.api.delete(`/subscription/${id}`);
  });

  it('when the lease of a run at a slow acquirer expires and another gateway takes the job over', async () => {
    const slowCard = await api.savedCard(undefined, a.providerIds[1]);
    const { id } = await api.subscribe({ paymentMethodId: slowCard.paymentMethodId, startDate: hours(1).toISOString() });
    const { chargeId, dueAt } = await pendingJob(id);
    now = hours(1);
    const first = t.gateway.worker.runDue();
    for (let i = 0; i < 200 && !(await db().charge.findUnique({ where: { id: chargeId } })); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).status).toBe('PROCESSING');
    // The first run is waiting for the acquirer; by the clock its 30-second lease is over.
    now = new Date(now.getTime() + 60_000);
    await Promise.all([first, other.gateway.worker.runDue()]);

    const job = await db().job.findFirstOrThrow({ where: { dedupeKey: `subscription:${id}:${dueAt.toISOString()}:0` } });
    expect(job).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(await api.chargesOf(id)).toMatchObject([{ chargeId, status: 'SUCCESS' }]);
    expect(live(chargeId)).toHaveLength(1);
    expect(await progressOf(id)).toMatchObject({ paymentCount: 1, nextBillingAt: new Date(dueAt.getTime() + 86_400_000) });
    await pendingJob(id);
    await a.api.delete(`/subscription/${id}`);
  });

  it('when two gateways bill from one database at once, for three weeks', async () => {
    const start = now;
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await api.subscribe({ amount: 3 })).id);
    for (let day = 0; day <= 20; day += 1) {
      now = new Date(start.getTime() + day * 86_400_000);
      await Promise.all([t.gateway.worker.runDue(), other.gateway.worker.runDue()]);
    }
    for (const id of ids) {
      const charges = await api.chargesOf(id);
      expect(charges).toHaveLength(21);
      expect(new Set(charges.map((c) => c.chargeId)).size).toBe(21);
      expect(charges.every((c) => c.status === 'SUCCESS')).toBe(true);
      expect(await progressOf(id)).toMatchObject({ paymentCount: 21, paidAmount: 6300n });
      for (const c of charges) expect(live(String(c.chargeId))).toHaveLength(1);
    }
    expect(await db().job.count({ where: { queue: 'subscription.bill', status: 'FAILED' } })).toBe(0);
  });
});
