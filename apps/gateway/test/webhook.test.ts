import { describe, expect, it } from 'vitest';
import { card, createAccount, dumpTables, VISA } from './harness';
import { bodiesByMessage, expectSigned, webhookTestbed, type Received } from './webhook-receiver';

/**
 * Webhook subscriptions over REST, and the events of customers, payment methods and charges
 * delivered to a real receiver in this process, which checks each signature with the account's key.
 */
const bed = webhookTestbed();
const { clock, drain, advance, subscribedAccount } = bed;

type Body = Record<string, unknown>;

const eventsOf = (requests: Received[]) => requests.map((r) => `${r.meta.type} ${r.meta.eventType} ${String(r.data.status ?? '')}`.trim());

describe('webhook subscriptions', () => {
  it('are created (any type casing, Java trailing slash), read, searched and removed softly', async () => {
    const a = await createAccount(bed.t);
    const before = new Date(clock.now().getTime() - 1000).toISOString();
    const created = await a.api.post('/webhook/subscription/', {
      Url: 'https://example',
      Authorization: 'Bearer abc',
      Types: ['transaction', 'PaymentMethod', 'Transaction'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      accountId: a.accountId,
      url: 'https://example',
      authorization: '********',
      types: ['Transaction', 'PaymentMethod'],
      dateRemoved: null,
    });
    const id = String(created.body.webhookSubscriptionId);
    const other = await a.api.post('/webhook/subscription', { url: 'https://webhook.site/x', types: ['Customer'] });
    expect(other.body.authorization).toBeNull();

    expect((await a.api.get(`/webhook/subscription/${id}`)).body).toEqual(created.body);
    const all = await a.api.get<{ webhookSubscriptions: Body[]; count: number }>('/webhook/subscription?sortBy=Date');
    expect(all.body.count).toBe(2);
    expect(all.body.webhookSubscriptions.map((s) => s.webhookSubscriptionId)).toEqual([other.body.webhookSubscriptionId, id]);
    const byType = await a.api.get<{ webhookSubscriptions: Body[]; count: number }>('/webhook/subscription?type=transaction&Sort=DATE');
    expect(byType.body.webhookSubscriptions.map((s) => s.webhookSubscriptionId)).toEqual([id]);
    expect((await a.api.get(`/webhook/subscription?Id=${id}&Limit=1&Skip=0`)).body.count).toBe(1);
    expect((await a.api.get(`/webhook/subscription?addedAfter=${encodeURIComponent(before)}`)).body.count).toBe(2);
    expect((await a.api.get(`/webhook/subscription?AddedBefore=${encodeURIComponent(before)}`)).body.count).toBe(0);

    const removed = await a.api.delete(`/webhook/subscription/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.dateRemoved).not.toBeNull();
    expect((await a.api.get(`/webhook/subscription/${id}`)).body.dateRemoved).toBe(removed.body.dateRemoved);
    expect((await a.api.get('/webhook/subscription')).body.count).toBe(1);

    // Another account sees none of them.
    const b = await createAccount(bed.t, []);
    expect((await b.api.get(`/webhook/subscription/${id}`)).status).toBe(404);
    expect((await b.api.delete(`/webhook/subscription/${id}`)).status).toBe(404);
    expect((await b.api.get('/webhook/subscription')).body.count).toBe(0);
  });

  it('refuse bad input with 400 and the error body, and unknown ids with 404', async () => {
    const a = await createAccount(bed.t, []);
    const bad: Body[] = [
      {},
      { url: 'https://example', types: [] },
      { url: 'https://example', types: ['Refund'] },
      { url: 'not a url', types: ['Customer'] },
      { url: 'ftp://example.com/x', types: ['Customer'] },
      { url: 'https://example', types: 'Customer' },
      { url: 'https://example', authorization: 42, types: ['Customer'] },
      // Not sendable as a header value: refused here rather than failing every delivery.
      { url: 'https://example', authorization: 'Bearer ключ', types: ['Customer'] },
      { url: 'https://example', authorization: 'Bearer x\r\nX-Injected: 1', types: ['Customer'] },
    ];
    for (const body of bad) {
      const answer = await a.api.post('/webhook/subscription', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ code: expect.any(Number), isRetryable: false });
    }
    expect((await a.api.get('/webhook/subscription?type=Refund')).status).toBe(400);
    expect((await a.api.get('/webhook/subscription?limit=-1')).status).toBe(400);
    expect((await a.api.get('/webhook/subscription/nope')).status).toBe(404);
    expect((await a.api.delete('/webhook/subscription/nope')).status).toBe(404);
    expect((await a.api.get('/webhook/event/nope')).status).toBe(404);
    expect((await a.api.get('/webhook/delivery?status=LOST')).status).toBe(400);
  });
});

describe('customer and payment method events', () => {
  it('go to the subscription and to the webhook of the request, signed, with the resource as the API answers it', async () => {
    const { a, signingKey } = await subscribedAccount('/cust/sub', ['Customer', 'PaymentMethod']);
    const created = await a.api.post('/customer/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      firstName: 'Ada',
      webhook: { url: bed.receiver.url('/cust/own'), authorization: 'Basic own-secret' },
    });
    expect(created.status).toBe(201);
    const customerId = String(created.body.customerId);
    const methodId = String((created.body.defaultPaymentMethod as Body).paymentMethodId);
    await drain();

    const toSubscription = bed.receiver.at('/cust/sub');
    const toOwn = bed.receiver.at('/cust/own');
    expect(eventsOf(toSubscription).sort()).toEqual(['customer customer.created', 'paymentMethod paymentmethod.created']);
    // The request's webhook serves the customer and the payment method it made.
    expect(eventsOf(toOwn).sort()).toEqual(eventsOf(toSubscription).sort());
    for (const request of toSubscription) {
      expectSigned(request, signingKey);
      expect(request.headers.authorization).toBe('Bearer subscription-secret');
    }
    for (const request of toOwn) {
      expectSigned(request, signingKey);
      expect(request.headers.authorization).toBe('Basic own-secret');
    }
    const customerEvent = toSubscription.find((r) => r.meta.type === 'customer')!;
    expect(customerEvent.data).toEqual(created.body);
    expect(toSubscription.find((r) => r.meta.type === 'paymentMethod')!.data).toEqual(
      (await a.api.get(`/payment_method/${methodId}`)).body,
    );
    // Both destinations of one event get the same message.
    expect(toOwn.find((r) => r.meta.messageId === customerEvent.meta.messageId)!.body).toBe(customerEvent.body);
    expect(Math.abs(Date.parse(customerEvent.meta.timestamp) - clock.now().getTime())).toBeLessThan(10_000);

    const updated = await a.api.put(`/customer/${customerId}`, { email: 'ada@example.com' });
    const removed = await a.api.delete(`/customer/${customerId}`);
    await drain();
    const later = bed.receiver.at('/cust/sub').slice(2);
    expect(eventsOf(later)).toEqual(['customer customer.updated', 'paymentMethod paymentmethod.deleted', 'customer customer.deleted']);
    expect(later[0]!.data).toEqual(updated.body);
    expect(later[2]!.data).toEqual(removed.body);
  });

  it('go to the webhook of the request for every way of making a payment method', async () => {
    const { a, signingKey } = await subscribedAccount('/made/sub', ['Customer', 'PaymentMethod']);
    const own = (name: string) => ({ url: bed.receiver.url(`/made/${name}`), authorization: `Basic ${name}` });
    const payTo = await a.api.post('/customer/payto', {
      firstName: 'Pat',
      webhook: own('payto'),
      payToAgreement: {
        payerName: 'Pat Payer',
        description: 'Rent',
        maximumAmount: 800,
        providerId: a.providerIds[0],
        payerPayIdDetails: { payId: 'pat@example.com', payIdType: 'EMAIL' },
      },
    });
    expect(payTo.status, JSON.stringify(payTo.body)).toBe(201);
    const alone = await a.api.post('/payment_method/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      webhook: own('alone'),
    });
    expect(alone.status).toBe(201);
    const added = await a.api.post(`/customer/${String(payTo.body.customerId)}/payment_method/card`, {
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      webhook: own('added'),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await drain();

    expect(eventsOf(bed.receiver.at('/made/payto')).sort()).toEqual(['customer customer.created', 'paymentMethod paymentmethod.created']);
    expect(eventsOf(bed.receiver.at('/made/alone'))).toEqual(['paymentMethod paymentmethod.created']);
    expect(eventsOf(bed.receiver.at('/made/added'))).toEqual(['paymentMethod paymentmethod.created']);
    for (const name of ['payto', 'alone', 'added']) {
      for (const request of bed.receiver.at(`/made/${name}`)) {
        expectSigned(request, signingKey);
        expect(request.headers.authorization).toBe(`Basic ${name}`);
      }
    }
    expect(bed.receiver.at('/made/alone')[0]!.data).toEqual(alone.body);
  });

  it('keep the authorization values sealed: no table holds them in clear', async () => {
    const { a } = await subscribedAccount('/sealed/sub', ['Transaction'], 'Bearer sub-Zq81');
    await a.api.post('/customer/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      webhook: { url: bed.receiver.url('/sealed/customer'), authorization: 'Bearer cust-Zq82' },
    });
    await a.api.post('/charge/card', {
      amount: 10,
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      webhook: { url: bed.receiver.url('/sealed/charge'), authorization: 'Bearer charge-Zq83' },
    });
    await drain();
    expect(bed.receiver.at('/sealed/charge')[0]!.headers.authorization).toBe('Bearer charge-Zq83');
    const text = (await dumpTables(bed.t)).flatMap((d) => d.rows).join('\n');
    for (const secret of ['sub-Zq81', 'cust-Zq82', 'charge-Zq83']) expect(text).not.toContain(secret);
  });
});

describe('transaction events', () => {
  it('report every change of a charge’s status with the charge as GET answers it', async () => {
    const { a, signingKey } = await subscribedAccount('/tx/sub', ['transaction']);
    const own = { url: bed.receiver.url('/tx/own'), authorization: 'Bearer charge-secret' };
    const authorised = await a.api.post('/charge/card', {
      amount: 20,
      currency: 'AUD',
      providerId: a.providerIds[0],
      capture: false,
      paymentInformation: card(VISA),
      webhook: own,
    });
    expect(authorised.body.status).toBe('AUTHORISE');
    const chargeId = String(authorised.body.chargeId);
    await drain();
    const [first] = bed.receiver.at('/tx/sub');
    expect(first!.meta).toMatchObject({ type: 'transaction', eventType: 'transaction.status.changed' });
    expect(first!.data).toEqual(authorised.body);
    expectSigned(first!, signingKey);

    const captured = await a.api.post(`/charge/${chargeId}/capture`, { amount: 15 });
    await drain();
    expect(bed.receiver.at('/tx/sub')[1]!.data).toEqual(captured.body);
    const refunded = await a.api.delete(`/charge/${chargeId}?amount=5`);
    await drain();
    expect(refunded.body.status).toBe('PARTIAL_REFUND');
    expect(bed.receiver.at('/tx/sub')[2]!.data).toEqual((await a.api.get(`/charge/${chargeId}`)).body);

    expect(eventsOf(bed.receiver.at('/tx/sub'))).toEqual([
      'transaction transaction.status.changed AUTHORISE',
      'transaction transaction.status.changed SUCCESS',
      'transaction transaction.status.changed PARTIAL_REFUND',
    ]);
    // The charge's own webhook: the same messages, with its own authorization.
    const toOwn = bed.receiver.at('/tx/own');
    expect(toOwn.map((r) => r.body)).toEqual(bed.receiver.at('/tx/sub').map((r) => r.body));
    for (const request of toOwn) expect(request.headers.authorization).toBe('Bearer charge-secret');

    // The delivery log, through the API.
    const log = await a.api.get<{ deliveries: Body[]; attemptLog: never }>(`/webhook/event/${first!.meta.messageId}`);
    expect(log.body).toMatchObject({ messageId: first!.meta.messageId, type: 'Transaction', resourceId: chargeId, data: authorised.body });
    expect(log.body.deliveries).toHaveLength(2);
    for (const delivery of log.body.deliveries) {
      expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
      expect(delivery.attemptLog).toEqual([
        { date: expect.any(String), statusCode: 200, error: null, durationMs: expect.any(Number), responseExcerpt: 'ok' },
      ]);
    }
    const search = await a.api.get<{ count: number; deliveries: Body[] }>(`/webhook/delivery?resourceId=${chargeId}&type=Transaction`);
    expect(search.body.count).toBe(6);
  });

  it('report declines, voids and refunds in full', async () => {
    const { a } = await subscribedAccount('/tx2/sub', ['Transaction']);
    const declined = await a.api.post('/charge/card', {
      amount: 20,
      providerId: a.providerIds[0],
      paymentInformation: card('4000000000000002'),
    });
    expect(declined.status).toBe(400);
    const voided = await a.api.post('/charge/card', {
      amount: 20,
      providerId: a.providerIds[0],
      capture: false,
      paymentInformation: card(VISA),
    });
    await a.api.delete(`/charge/${String(voided.body.chargeId)}/void`);
    const paid = await a.api.post('/charge/card', { amount: 20, providerId: a.providerIds[0], paymentInformation: card(VISA) });
    await a.api.delete(`/charge/${String(paid.body.chargeId)}`);
    await drain();
    expect(eventsOf(bed.receiver.at('/tx2/sub')).map((e) => e.split(' ').at(-1))).toEqual([
      'FAILED',
      'AUTHORISE',
      'AUTHORISE_CANCELLED',
      'SUCCESS',
      'REFUND',
    ]);
    const failed = bed.receiver.at('/tx2/sub')[0]!.data;
    expect(failed).toEqual((await a.api.get(`/charge/${String((declined.body.details as Body).chargeId)}`)).body);
  });

  it('report a bank debit when it settles or fails, and a charge abandoned in flight', async () => {
    const { a } = await subscribedAccount('/tx3/sub', ['Transaction']);
    const debit = (accountNumber: string) =>
      a.api.post('/charge/bank_account', {
        amount: 30,
        providerId: a.providerIds[0],
        bankPaymentInformation: { bankCode: '062-000', accountNumber, accountName: 'Ann Payer' },
      });
    const settling = await debit('12345678');
    const refused = await debit('11110000');
    expect([settling.body.status, refused.body.status]).toEqual(['PENDING', 'PENDING']);
    await drain();
    expect(bed.receiver.at('/tx3/sub')).toEqual([]);
    await advance(60_000);
    const byCharge = new Map(bed.receiver.at('/tx3/sub').map((r) => [r.data.chargeId, r.data]));
    expect(byCharge.size).toBe(2);
    for (const { body } of [settling, refused]) {
      expect(byCharge.get(body.chargeId)).toEqual((await a.api.get(`/charge/${String(body.chargeId)}`)).body);
    }
    expect([byCharge.get(settling.body.chargeId)!.status, byCharge.get(refused.body.chargeId)!.status]).toEqual(['SUCCESS', 'FAILED']);

    // A process died while the provider had the charge: the sweep fails it, and says so.
    const { body } = await a.api.post('/charge/card', { amount: 40, providerId: a.providerIds[0], paymentInformation: card(VISA) });
    await bed.t.gateway.database.prisma.charge.update({
      where: { id: String(body.chargeId) },
      data: { status: 'PROCESSING', dateAdded: new Date(clock.now().getTime() - 10 * 60_000) },
    });
    expect(await bed.t.gateway.services.charges.sweepAbandoned()).toBe(1);
    await drain();
    const last = bed.receiver.at('/tx3/sub').at(-1)!;
    expect(last.data).toMatchObject({ chargeId: body.chargeId, status: 'FAILED' });
    expect(last.data).toEqual((await a.api.get(`/charge/${String(body.chargeId)}`)).body);
  });

  it('are not written at all when nobody listens, and stop when the subscription is removed', async () => {
    const a = await createAccount(bed.t);
    const other = await a.api.post('/webhook/subscription', { url: bed.receiver.url('/tx4/customers'), types: ['Customer'] });
    await a.api.post('/charge/card', { amount: 20, providerId: a.providerIds[0], paymentInformation: card(VISA) });
    const events = () => bed.t.gateway.database.prisma.webhookEvent.count({ where: { accountId: a.accountId } });
    expect(await events()).toBe(0);

    const { body } = await a.api.post('/webhook/subscription', { url: bed.receiver.url('/tx4/sub'), types: ['Transaction'] });
    await a.api.post('/charge/card', { amount: 21, providerId: a.providerIds[0], paymentInformation: card(VISA) });
    await drain();
    expect(await events()).toBe(1);
    await a.api.delete(`/webhook/subscription/${String(body.webhookSubscriptionId)}`);
    await a.api.delete(`/webhook/subscription/${String(other.body.webhookSubscriptionId)}`);
    await a.api.post('/charge/card', { amount: 22, providerId: a.providerIds[0], paymentInformation: card(VISA) });
    await drain();
    expect(await events()).toBe(1);
    expect(bed.receiver.at('/tx4/sub').map((r) => r.data.amount)).toEqual([21]);
  });
});

it('never sent one messageId as two different events', () => {
  const bodies = bodiesByMessage(bed.receiver.all());
  expect(bodies.size).toBeGreaterThan(10);
  for (const [messageId, distinct] of bodies) expect(distinct.size, messageId).toBe(1);
});
