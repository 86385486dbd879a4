import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';
import { bodiesByMessage, drain as drainOf, expectSigned, SLOW_MS, webhookTestbed } from './webhook-receiver';

/**
 * Delivery under trouble: a receiver that is down, answers 500 or is too slow gets the event
 * later, with the same body, on the backoff the delivery log shows; after the last attempt the
 * delivery fails. Time is a clock the test moves; the gateway waits 300 ms for an answer.
 */
const TIMEOUT_MS = 300;
const bed = webhookTestbed({ webhookTimeoutMs: TIMEOUT_MS });
const { clock, drain, advance, subscribedAccount } = bed;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

type Body = Record<string, unknown>;
interface Delivery extends Body {
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  attemptLog: Array<{ date: string; statusCode: number | null; error: string | null; durationMs: number }>;
}

/** A customer of `a`, made to produce one Customer event; its messageId comes from the delivery log. */
async function customerEvent(a: TestAccount) {
  const { body } = await a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(VISA) });
  const search = await a.api.get<{ deliveries: Array<{ messageId: string }> }>(`/webhook/delivery?resourceId=${String(body.customerId)}`);
  const messageId = search.body.deliveries[0]!.messageId;
  return { customerId: String(body.customerId), messageId };
}

/** The one delivery of an event, with its attempts, through the API. */
async function deliveryOf(a: TestAccount, messageId: string): Promise<Delivery> {
  const { status, body } = await a.api.get<{ deliveries: Delivery[] }>(`/webhook/event/${messageId}`);
  expect(status).toBe(200);
  expect(body.deliveries).toHaveLength(1);
  return body.deliveries[0]!;
}

const msBetween = (from: string, to: string | null) => Date.parse(to ?? '') - Date.parse(from);

describe('a receiver', () => {
  it('that is down gets the event once it is back, at the time the log announced', async () => {
    const { a, signingKey } = await subscribedAccount('/down', ['Customer']);
    await bed.receiver.down();
    const { messageId } = await customerEvent(a);
    await drain();
    let delivery = await deliveryOf(a, messageId);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null, deliveredAt: null });
    expect(delivery.lastError).toMatch(/ECONNREFUSED/);
    expect(msBetween(delivery.attemptLog[0]!.date, delivery.nextAttemptAt)).toBeGreaterThanOrEqual(30 * SECOND);
    expect(msBetween(delivery.attemptLog[0]!.date, delivery.nextAttemptAt)).toBeLessThan(30 * SECOND + TIMEOUT_MS);

    await bed.receiver.up();
    await advance(29 * SECOND - TIMEOUT_MS);
    expect(bed.receiver.at('/down')).toEqual([]);
    await advance(1 * SECOND + TIMEOUT_MS);
    const [request] = bed.receiver.at('/down');
    expect(request!.meta.messageId).toBe(messageId);
    expectSigned(request!, signingKey);
    delivery = await deliveryOf(a, messageId);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(delivery.attemptLog.map((x) => x.statusCode)).toEqual([null, 200]);
  });

  it('that answers 500 is tried again with growing delays, each attempt logged; a new signing key signs the retries', async () => {
    const { a, signingKey } = await subscribedAccount('/fail', ['Customer']);
    bed.receiver.plan('/fail', 'fail', 'fail');
    const { messageId } = await customerEvent(a);
    await drain();
    expect(await deliveryOf(a, messageId)).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 500 });

    const rotated = await bed.t.gateway.services.webhooks.rotateSigningKey({ id: a.accountId }, 'test');
    await advance(30 * SECOND);
    let delivery = await deliveryOf(a, messageId);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 2, lastStatusCode: 500, lastError: 'The receiver answered 500' });
    expect(msBetween(delivery.attemptLog[1]!.date, delivery.nextAttemptAt)).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(msBetween(delivery.attemptLog[1]!.date, delivery.nextAttemptAt)).toBeLessThan(2 * MINUTE + TIMEOUT_MS);
    await advance(2 * MINUTE);
    delivery = await deliveryOf(a, messageId);
    expect(delivery.status).toBe('DELIVERED');
    expect(delivery.attemptLog.map((x) => [x.statusCode, x.error])).toEqual([
      [500, 'The receiver answered 500'],
      [500, 'The receiver answered 500'],
      [200, null],
    ]);
    const gaps = delivery.attemptLog.slice(1).map((x, i) => msBetween(delivery.attemptLog[i]!.date, x.date));
    expect(gaps[0]).toBeGreaterThanOrEqual(30 * SECOND);
    expect(gaps[1]).toBeGreaterThanOrEqual(2 * MINUTE);

    const requests = bed.receiver.at('/fail');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expectSigned(requests[0]!, signingKey);
    for (const retry of requests.slice(1)) expectSigned(retry, rotated);
  });

  it('that is too slow is tried again, with the same message', async () => {
    const { a } = await subscribedAccount('/slow', ['Customer']);
    bed.receiver.plan('/slow', 'slow');
    const { messageId } = await customerEvent(a);
    await drain();
    const delivery = await deliveryOf(a, messageId);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: null, lastError: 'No answer within 0.3 s' });
    expect(delivery.attemptLog[0]!.durationMs).toBeLessThan(SLOW_MS);

    await advance(30 * SECOND);
    expect(await deliveryOf(a, messageId)).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    const requests = bed.receiver.at('/slow');
    expect(requests.map((r) => r.meta.messageId)).toEqual([messageId, messageId]);
    expect(requests[1]!.body).toBe(requests[0]!.body);
  });

  it('that never answers well is tried 10 times over about a day, then the delivery fails', async () => {
    const { a } = await subscribedAccount('/never', ['Customer']);
    bed.receiver.plan('/never', ...Array.from({ length: 12 }, () => 'fail' as const));
    const { messageId } = await customerEvent(a);
    await drain();
    for (let attempt = 1; attempt < 10; attempt += 1) {
      const { nextAttemptAt } = await deliveryOf(a, messageId);
      await advance(Date.parse(nextAttemptAt!) - clock.now().getTime());
    }
    const delivery = await deliveryOf(a, messageId);
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 10, nextAttemptAt: null, lastStatusCode: 500 });
    const span = msBetween(delivery.attemptLog[0]!.date, delivery.attemptLog[9]!.date);
    expect(span).toBeGreaterThan(20 * HOUR);
    expect(span).toBeLessThan(26 * HOUR);
    await advance(24 * HOUR);
    expect(bed.receiver.at('/never')).toHaveLength(10);
    const failed = await a.api.get<{ count: number }>('/webhook/delivery?status=FAILED');
    expect(failed.body.count).toBe(1);
  });

  it('of a removed subscription gets no more attempts, even from a process that had not heard of the removal', async () => {
    const { a, subscriptionId } = await subscribedAccount('/removed', ['Customer']);
    bed.receiver.plan('/removed', 'fail');
    const { messageId } = await customerEvent(a);
    await drain();
    await a.api.delete(`/webhook/subscription/${subscriptionId}`);
    await advance(30 * SECOND);
    expect(bed.receiver.at('/removed')).toHaveLength(1);
    expect(await deliveryOf(a, messageId)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      lastError: 'The webhook subscription was removed',
    });

    // Removed by another process (straight in the database): the outbox reads subscriptions afresh,
    // so a later event is not addressed to it at all.
    const other = await subscribedAccount('/removed-elsewhere', ['Customer']);
    await customerEvent(other.a);
    await drain();
    await bed.t.gateway.database.prisma.webhookSubscription.update({
      where: { id: other.subscriptionId },
      data: { dateRemoved: clock.now() },
    });
    const { body } = await other.a.api.post('/customer/card', { providerId: other.a.providerIds[0], paymentInformation: card(VISA) });
    await drain();
    expect(bed.receiver.at('/removed-elsewhere')).toHaveLength(1);
    const late = await other.a.api.get<{ count: number }>(`/webhook/delivery?resourceId=${String(body.customerId)}`);
    expect(late.body.count).toBe(0);
  });
});

it('never sent one messageId as two different events', () => {
  const bodies = bodiesByMessage(bed.receiver.all());
  expect(bodies.size).toBeGreaterThanOrEqual(5);
  for (const [messageId, distinct] of bodies) expect(distinct.size, messageId).toBe(1);
});

describe('a gateway that refuses private addresses (the default)', () => {
  let strict: TestGateway;
  beforeAll(async () => {
    strict = await startTestGateway({ webhookAllowPrivate: false });
  });
  afterAll(() => strict.close());

  it('refuses subscriptions to loopback, private and link-local addresses, by address or by name', async () => {
    const a = await createAccount(strict, []);
    const refused = [
      bed.receiver.url('/private'),
      `http://localhost:${bed.receiver.port}/private`,
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://172.16.5.4/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://0.0.0.0/hook',
    ];
    for (const url of refused) {
      const { status, body } = await a.api.post('/webhook/subscription', { url, types: ['Customer'] });
      expect(status, url).toBe(400);
      expect(body).toMatchObject({ code: 90, details: { url: expect.stringMatching(/non-public/) } });
    }
    expect((await a.api.post('/webhook/subscription', { url: 'https://example', types: ['Customer'] })).status).toBe(200);
  });

  it('fails a request’s webhook to a private address at once, without sending anything', async () => {
    const a = await createAccount(strict);
    for (const url of [bed.receiver.url('/private'), `http://localhost:${bed.receiver.port}/private`]) {
      const { body } = await a.api.post('/customer/card', {
        providerId: a.providerIds[0],
        paymentInformation: card(VISA),
        webhook: { url, authorization: 'Bearer x' },
      });
      while ((await strict.gateway.worker.runDue()) > 0);
      const log = await a.api.get<{ deliveries: Delivery[] }>(`/webhook/delivery?resourceId=${String(body.customerId)}`);
      expect(log.body.deliveries).toHaveLength(1);
      expect(log.body.deliveries[0]).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        nextAttemptAt: null,
        lastError: expect.stringMatching(/non-public/),
      });
    }
    expect(bed.receiver.at('/private')).toEqual([]);
  });
});
