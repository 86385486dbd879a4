import { ERRORS } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { card, createAccount, staffOf, VISA } from './harness';
import { expectSigned, webhookTestbed } from './webhook-receiver';

/**
 * What staff do with webhooks from the dashboard (tRPC, staff session only): send a subscription a
 * test event and read its answer, retry a delivery. Both go through the delivery jobs, so a test
 * is signed and checked like any delivery, and a retry is the same delivery (same webhook-id).
 */
const bed = webhookTestbed({ webhookTimeoutMs: 300 });
const { drain, advance, subscribedAccount } = bed;

const HOUR = 3_600_000;

interface Attempt {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}
interface Delivery {
  deliveryId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  nextAttemptAt: string | null;
  attemptLog: Attempt[];
}
interface WebhookEvent {
  type: string;
  eventType: string;
  deliveries: Delivery[];
}

describe('a test delivery', () => {
  it("is sent through the delivery jobs, signed, and its answer (status and the body's start) is in its log", async () => {
    const { a, subscriptionId, signingKey } = await subscribedAccount('/test-ok', ['Customer']);
    const staff = await staffOf(bed.t, a.accountId);
    const sent = await staff.mutate<{ messageId: string; deliveryId: string }>('webhook.sendTest', {
      webhookSubscriptionId: subscriptionId,
    });
    expect(sent.status).toBe(200);
    await drain();

    const [request, ...more] = bed.receiver.at('/test-ok');
    expect(more).toEqual([]);
    expectSigned(request!, signingKey);
    expect(request!.headers['webhook-id']).toBe(sent.data.messageId);
    expect(request!.headers.authorization).toBe('Bearer subscription-secret');
    expect(request!.meta).toMatchObject({ messageId: sent.data.messageId, type: 'test', eventType: 'webhook.test' });
    expect(request!.data).toMatchObject({ webhookSubscriptionId: subscriptionId });

    const { data: event } = await staff.query<WebhookEvent>('webhook.getEvent', { messageId: sent.data.messageId });
    expect(event).toMatchObject({ type: 'Test', eventType: 'webhook.test' });
    expect(event.deliveries).toMatchObject([
      {
        deliveryId: sent.data.deliveryId,
        status: 'DELIVERED',
        attempts: 1,
        lastStatusCode: 200,
        attemptLog: [{ statusCode: 200, error: null, responseExcerpt: 'ok' }],
      },
    ]);
    // The delivery log over REST shows it too, with its type.
    const log = await a.api.get<{ deliveries: Array<{ type: string }> }>(`/webhook/delivery?resourceId=${subscriptionId}`);
    expect(log.body.deliveries).toMatchObject([{ type: 'Test' }]);
  });

  it('that fails is tried once: it waits for no retry', async () => {
    const { a, subscriptionId } = await subscribedAccount('/test-fail', ['Customer']);
    bed.receiver.plan('/test-fail', 'fail', 'fail');
    const staff = await staffOf(bed.t, a.accountId);
    const { data } = await staff.mutate<{ messageId: string }>('webhook.sendTest', { webhookSubscriptionId: subscriptionId });
    await drain();
    await advance(24 * HOUR); // past the whole retry schedule
    expect(bed.receiver.at('/test-fail')).toHaveLength(1);
    // The REST delivery log tells it too (the staff session is over by now).
    const { body: event } = await a.api.get<WebhookEvent>(`/webhook/event/${data.messageId}`);
    expect(event.deliveries).toMatchObject([
      {
        status: 'FAILED',
        attempts: 1,
        nextAttemptAt: null,
        attemptLog: [{ statusCode: 500, error: 'The receiver answered 500', responseExcerpt: 'no' }],
      },
    ]);
  });

  it("goes only to an active subscription of the staff member's account, and needs a session", async () => {
    const { a, subscriptionId } = await subscribedAccount('/test-scoped', ['Customer']);
    const stranger = await staffOf(bed.t, (await createAccount(bed.t)).accountId);
    const foreign = await stranger.mutate('webhook.sendTest', { webhookSubscriptionId: subscriptionId });
    expect(foreign.status).toBe(404);
    expect(foreign.apiError?.code).toBe(ERRORS.ValidationError.code);
    expect((await stranger.mutate('webhook.sendTest', {})).status).toBe(400);

    expect((await a.api.delete(`/webhook/subscription/${subscriptionId}`)).status).toBe(200);
    const staff = await staffOf(bed.t, a.accountId);
    expect((await staff.mutate('webhook.sendTest', { webhookSubscriptionId: subscriptionId })).status).toBe(404);

    const anonymous = await fetch(`${bed.t.url}/trpc/webhook.sendTest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-secretkey': a.secretKey },
      body: JSON.stringify({ webhookSubscriptionId: subscriptionId }),
    });
    expect(anonymous.status).toBe(401);
    await drain();
    expect(bed.receiver.at('/test-scoped')).toEqual([]);
  });
});

describe('a retry from the dashboard', () => {
  it("brings a waiting delivery's next attempt to now: the same delivery and webhook-id", async () => {
    const { a } = await subscribedAccount('/retry-pending', ['Customer']);
    bed.receiver.plan('/retry-pending', 'fail');
    const { body: customer } = await a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(VISA) });
    await drain();
    const search = await a.api.get<{ deliveries: Array<Delivery & { messageId: string }> }>(
      `/webhook/delivery?resourceId=${String(customer.customerId)}`,
    );
    const [waiting] = search.body.deliveries;
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 1 });

    const staff = await staffOf(bed.t, a.accountId);
    const retried = await staff.mutate<Delivery>('webhook.retryDelivery', { deliveryId: waiting!.deliveryId });
    expect(retried.status).toBe(200);
    expect(Date.parse(retried.data.nextAttemptAt ?? '')).toBeLessThan(Date.parse(waiting!.nextAttemptAt ?? ''));
    await drain(); // the clock has not moved: only the retry can have sent it
    const requests = bed.receiver.at('/retry-pending');
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([waiting!.messageId, waiting!.messageId]);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    const { data: event } = await staff.query<WebhookEvent>('webhook.getEvent', { messageId: waiting!.messageId });
    expect(event.deliveries).toMatchObject([{ deliveryId: waiting!.deliveryId, status: 'DELIVERED', attempts: 2 }]);
    // Its job ran: no attempt is left waiting for the old time.
    await advance(HOUR);
    expect(bed.receiver.at('/retry-pending')).toHaveLength(2);
  });

  it('of a failed delivery makes one more attempt, once however often it is asked; a delivered one is refused', async () => {
    const { a, subscriptionId } = await subscribedAccount('/retry-failed', ['Customer']);
    bed.receiver.plan('/retry-failed', 'fail');
    const staff = await staffOf(bed.t, a.accountId);
    const { data: sent } = await staff.mutate<{ messageId: string; deliveryId: string }>('webhook.sendTest', {
      webhookSubscriptionId: subscriptionId,
    });
    await drain();
    const retries = await Promise.all(
      [1, 2, 3].map(() => staff.mutate<Delivery>('webhook.retryDelivery', { deliveryId: sent.deliveryId })),
    );
    expect(retries.map((r) => r.status)).toEqual([200, 200, 200]);
    await drain();
    const requests = bed.receiver.at('/retry-failed');
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([sent.messageId, sent.messageId]);
    const { data: event } = await staff.query<WebhookEvent>('webhook.getEvent', { messageId: sent.messageId });
    expect(event.deliveries).toMatchObject([
      { status: 'DELIVERED', attempts: 2, lastStatusCode: 200, attemptLog: [{ statusCode: 500 }, { statusCode: 200 }] },
    ]);

    const again = await staff.mutate('webhook.retryDelivery', { deliveryId: sent.deliveryId });
    expect(again.status).toBe(400);
    expect(again.apiError).toMatchObject({ code: ERRORS.ValidationError.code, message: 'This delivery got through already' });
    const stranger = await staffOf(bed.t, (await createAccount(bed.t)).accountId);
    expect((await stranger.mutate('webhook.retryDelivery', { deliveryId: sent.deliveryId })).status).toBe(404);
    await drain();
    expect(bed.receiver.at('/retry-failed')).toHaveLength(2);
  });

  it('is refused once the subscription is removed', async () => {
    const { a, subscriptionId } = await subscribedAccount('/retry-removed', ['Customer']);
    bed.receiver.plan('/retry-removed', 'fail');
    const staff = await staffOf(bed.t, a.accountId);
    const { data: sent } = await staff.mutate<{ deliveryId: string }>('webhook.sendTest', { webhookSubscriptionId: subscriptionId });
    await drain();
    await a.api.delete(`/webhook/subscription/${subscriptionId}`);
    const refused = await staff.mutate('webhook.retryDelivery', { deliveryId: sent.deliveryId });
    expect(refused.status).toBe(400);
    expect(refused.apiError?.message).toBe('The webhook subscription was removed');
  });
});
