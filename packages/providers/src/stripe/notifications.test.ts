import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signStripePayload, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRead } from '../provider-type.js';
import { STRIPE_NOTIFICATIONS } from './notifications.js';
import { modification, payerPresent, payment } from './scenarios.js';
import { valueOf } from '../testing.js';
import { startStripe } from './testing.js';
import type { ProviderConnector } from '../connector.js';

// Stripe events as the fake Stripe signs and delivers them, read by the connector's notification format.
const SECRET = 'whsec_test0123456789abcdefABCDEF';
const parameters = { SecretKey: 'sk_test_51FakeGateway0000000000000000', WebhookSecret: SECRET };

let fake: FakeStripe;
let connector: ProviderConnector;
let url: string;
const reads: NotificationRead[] = [];
const receiver = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    const read = STRIPE_NOTIFICATIONS.read({ rawBody: Buffer.concat(chunks), headers, parameters, now: new Date() });
    reads.push(read);
    const { status, contentType, body } = read.ok
      ? STRIPE_NOTIFICATIONS.accepted
      : { status: 400, contentType: 'text/plain', body: 'refused' };
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  });
});

beforeAll(async () => {
  ({ fake, connector } = await startStripe());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/provider/p1/notification`;
});
afterEach(() => expect(fake.violations).toEqual([]));
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function deliver(event: Record<string, unknown>, options?: { timestamp?: number }) {
  const answer = await fake.sendEvent(url, event, SECRET, options);
  return { answer, read: reads.at(-1)! };
}

const card = { type: 'card', card: { number: '4242424242424242', expiryMonth: 12, expiryYear: 2040, cvc: '123' } } as const;

describe('events Stripe delivers', () => {
  it('reads an authorisation and its capture, each once per event id', async () => {
    const req = payment(card);
    const { providerChargeId } = valueOf(await connector.authorise(req));
    const authorised = await deliver(fake.event('payment_intent.amount_capturable_updated', providerChargeId));
    expect(authorised.answer).toEqual({ status: 200, body: '{"received":true}' });
    expect(authorised.read).toEqual({
      ok: true,
      notifications: [
        {
          id: expect.stringMatching(/^evt_/),
          event: 'authorisation',
          success: true,
          providerChargeId,
          reference: req.idempotencyKey,
          amount: 1250n,
          currency: 'USD',
        },
      ],
    });
    valueOf(await connector.capture({ providerChargeId, amount: 1000n, currency: 'USD', idempotencyKey: `${req.idempotencyKey}:c` }));
    const event = fake.event('payment_intent.succeeded', providerChargeId);
    const first = await deliver(event);
    const again = await deliver(event);
    expect(first.read).toMatchObject({ ok: true, notifications: [{ id: event.id, event: 'capture', success: true, amount: 1000n }] });
    expect(again.read).toEqual(first.read);
    const charge = fake.charges().find((c) => c.payment_intent === providerChargeId)!;
    const captured = await deliver(fake.event('charge.captured', charge.id as string));
    expect(captured.read).toMatchObject({
      ok: true,
      notifications: [{ event: 'capture', providerChargeId, providerReference: charge.id, amount: 1000n }],
    });
  });

  it('reads the events of payments that waited for 3-D Secure as authorisations of their payment intents', async () => {
    const challenged = { type: 'card', card: { ...card.card, number: '4000000000003220' } } as const;
    const attempt = async (capture: boolean, outcome: 'complete' | 'fail') => {
      const req = payment(challenged, { capture, authentication: payerPresent() });
      const { providerChargeId } = valueOf(await connector.authorise(req));
      fake.completeChallenge(providerChargeId, outcome);
      return { reference: req.idempotencyKey, providerChargeId };
    };
    const readEvent = async (type: string, paymentIntent: string) => {
      const [event] = fake.events({ type, paymentIntent });
      return (await deliver(event!)).read;
    };
    const sale = await attempt(true, 'complete');
    const authorised = await attempt(false, 'complete');
    const failed = await attempt(false, 'fail');
    const amount = { amount: 1250n, currency: 'USD' };

    expect(await readEvent('payment_intent.requires_action', sale.providerChargeId)).toEqual({
      ok: true,
      notifications: [{ id: expect.stringMatching(/^evt_/), event: 'authorisation', success: false, ...sale, ...amount }],
    });
    expect(await readEvent('payment_intent.succeeded', sale.providerChargeId)).toEqual({
      ok: true,
      notifications: [{ id: expect.stringMatching(/^evt_/), event: 'authorisation', success: true, ...sale, ...amount }],
    });
    expect(await readEvent('payment_intent.amount_capturable_updated', authorised.providerChargeId)).toEqual({
      ok: true,
      notifications: [{ id: expect.stringMatching(/^evt_/), event: 'authorisation', success: true, ...authorised, ...amount }],
    });
    expect(await readEvent('payment_intent.payment_failed', failed.providerChargeId)).toEqual({
      ok: true,
      notifications: [
        {
          id: expect.stringMatching(/^evt_/),
          event: 'authorisation',
          success: false,
          ...failed,
          ...amount,
          failure: expect.objectContaining({ category: 'authentication_required', gatewayCode: 'payment_intent_authentication_failure' }),
          threeDs: { transStatus: 'N', liabilityShift: false },
        },
      ],
    });
  });

  it('reads a failed payment with the code table’s failure, never Stripe’s words', async () => {
    const req = payment({ type: 'card', card: { ...card.card, number: '4000000000009995' } });
    await connector.authorise(req);
    const [intent] = fake.paymentIntents().filter((pi) => (pi.metadata as Record<string, string>).attempt === req.idempotencyKey);
    const { read } = await deliver(fake.event('payment_intent.payment_failed', intent!.id as string));
    expect(read).toMatchObject({
      ok: true,
      notifications: [
        {
          event: 'authorisation',
          success: false,
          reference: req.idempotencyKey,
          failure: {
            category: 'insufficient_funds',
            gatewayCode: 'card_declined/insufficient_funds',
            gatewayMessage: 'Insufficient funds',
          },
        },
      ],
    });
  });

  it('reads a void, and a pending refund that succeeds or fails later', async () => {
    const voided = valueOf(await connector.authorise(payment(card)));
    valueOf(await connector.void({ providerChargeId: voided.providerChargeId, idempotencyKey: `v-${voided.providerChargeId}` }));
    expect((await deliver(fake.event('payment_intent.canceled', voided.providerChargeId))).read).toMatchObject({
      ok: true,
      notifications: [{ event: 'void', success: true }],
    });

    const sale = valueOf(await connector.authorise(payment(card, { capture: true })));
    fake.setRefundStatus('pending');
    const refunds = [];
    for (const amount of [300n, 400n]) {
      const key = `r-${sale.providerChargeId}-${amount}`;
      refunds.push({
        key,
        ...valueOf(await connector.refund(modification(sale.providerChargeId, amount, key))),
      });
    }
    fake.setRefundStatus('succeeded');
    const [good, bad] = refunds;
    expect((await deliver(fake.event('refund.created', good!.providerRefundId))).read).toMatchObject({
      ok: true,
      notifications: [{ event: 'other' }],
    });
    fake.settleRefund(good!.providerRefundId, 'succeeded');
    fake.settleRefund(bad!.providerRefundId, 'failed');
    expect((await deliver(fake.event('refund.updated', good!.providerRefundId))).read).toMatchObject({
      ok: true,
      notifications: [
        {
          event: 'refund',
          success: true,
          providerChargeId: sale.providerChargeId,
          providerReference: good!.providerRefundId,
          reference: good!.key,
          amount: 300n,
        },
      ],
    });
    expect((await deliver(fake.event('charge.refund.updated', bad!.providerRefundId))).read).toMatchObject({
      ok: true,
      notifications: [
        { event: 'refund', success: false, reference: bad!.key, amount: 400n, currency: 'USD', failure: { gatewayCode: 'REFUND_FAILED' } },
      ],
    });
  });

  it.each([
    ['JPY', 1500n, 1500n],
    ['KWD', 12340n, 12340n],
    ['ISK', 123n, 123n],
  ] as const)('gives a %s refund’s amount in ISO minor units, and no amount for charge.refunded', async (currency, iso, refunded) => {
    const sale = valueOf(await connector.authorise(payment(card, { capture: true, amount: iso, currency })));
    const refund = valueOf(await connector.refund({ ...modification(sale.providerChargeId, refunded), currency }));
    expect((await deliver(fake.event('refund.updated', refund.providerRefundId))).read).toMatchObject({
      ok: true,
      notifications: [{ event: 'refund', success: true, amount: refunded, currency }],
    });
    const charge = fake.charges().find((c) => c.payment_intent === sale.providerChargeId)!;
    const [total] = ((await deliver(fake.event('charge.refunded', charge.id as string))).read as { notifications: object[] }).notifications;
    // Stripe's amount there is every refund of the charge together: no amount, so never compared.
    expect(total).toMatchObject({ event: 'refund', success: true });
    expect(total).not.toHaveProperty('amount');
    expect(total).not.toHaveProperty('currency');
  });
});

describe('events that change nothing', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    livemode: false,
    data: {
      object: {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 100,
        amount_received: 100,
        capture_method: 'manual',
        currency: 'usd',
        metadata: {},
      },
    },
  });
  const now = new Date();
  const at = Math.floor(now.getTime() / 1000);
  const read = (rawBody: string, signature: string | undefined, extra: Record<string, string> = {}) =>
    STRIPE_NOTIFICATIONS.read({
      rawBody: Buffer.from(rawBody),
      headers: { 'stripe-signature': signature },
      parameters: { ...parameters, ...extra },
      now,
    });

  it('takes a well signed event', () => {
    expect(read(body, signStripePayload(body, SECRET, at))).toMatchObject({
      ok: true,
      notifications: [{ id: 'evt_1', event: 'capture', amount: 100n }],
    });
  });

  it.each([
    ['forged (another secret)', body, signStripePayload(body, 'whsec_someoneelse0123456789abc', at), /signature/],
    [
      'tampered (body changed after signing)',
      body.replace('"amount":100', '"amount":900'),
      signStripePayload(body, SECRET, at),
      /signature/,
    ],
    ['stale (signed 301 s ago)', body, signStripePayload(body, SECRET, at - 301), /ago/],
    ['from the future (signed 301 s ahead)', body, signStripePayload(body, SECRET, at + 301), /ahead/],
    ['unsigned', body, undefined, /Stripe-Signature/],
  ])('refuses an event %s', (_case, raw, signature, reason) => {
    const result = read(raw, signature);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['missing', undefined],
  ])('refuses a signed event whose data.object is %s', (_case, object) => {
    const signed = JSON.stringify({ ...JSON.parse(body), data: { object } });
    expect(read(signed, signStripePayload(signed, SECRET, at))).toEqual({ ok: false, reason: 'not a Stripe event' });
  });

  it('refuses a test event for a live provider, and any event without a WebhookSecret', () => {
    expect(read(body, signStripePayload(body, SECRET, at), { SecretKey: 'sk_live_51Live000000000000000' })).toMatchObject({
      ok: false,
      reason: /other mode/,
    });
    expect(
      STRIPE_NOTIFICATIONS.read({
        rawBody: Buffer.from(body),
        headers: { 'stripe-signature': signStripePayload(body, SECRET, at) },
        parameters: { SecretKey: parameters.SecretKey },
        now,
      }),
    ).toMatchObject({ ok: false, reason: /WebhookSecret/ });
  });
});
