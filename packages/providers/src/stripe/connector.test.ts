import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeStripe, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConnector } from '../connector.js';
import { CVC, EXPIRY, modification, payment, TEST_CARDS } from './scenarios.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { connectorTo, received, startStripe } from './testing.js';
import { toStripeAmount } from './currencies.js';
import { STRIPE } from './type.js';

// What the connector sends the fake Stripe, and how it copes with timeouts, lost answers and errors.
let fake: FakeStripe;
let connector: ProviderConnector;
/** A connector that gives up after 800 ms, for calls the fake never answers. */
let impatient: ProviderConnector;
beforeAll(async () => {
  ({ fake, connector } = await startStripe());
  impatient = connectorTo(fake.url, fake.secretKey, 800);
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.setRawCardsAllowed(true);
});
afterAll(() => fake.close());

const card = (number: string = TEST_CARDS.visa.number) =>
  ({ type: 'card', card: { number, ...EXPIRY, cvc: CVC, cardholder: 'Ada Lovelace' } }) as const;
const intentsOf = (key: string) => fake.paymentIntents().filter((pi) => (pi.metadata as Record<string, string>).attempt === key);

describe('what Stripe receives', () => {
  it('creates a payment method, then a confirmed payment intent, each under its own key', async () => {
    const req = payment(card(), { reference: 'order <42>', descriptor: 'Shop "42" *sale*' });
    const auth = valueOf(await connector.authorise(req));
    expect(auth.card).toEqual({ iin: '424242', last4: '4242', length: 16, ...EXPIRY, cardholder: 'Ada Lovelace' });
    const [pm] = received(fake, 'post /v1/payment_methods').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pm`);
    expect(pm?.params).toEqual({
      type: 'card',
      card: { number: '424242******4242', exp_month: 12, exp_year: EXPIRY.expiryYear, cvc: '***' },
      billing_details: { name: 'Ada Lovelace' },
    });
    const [pi] = received(fake, 'post /v1/payment_intents').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pi`);
    expect(pi).toMatchObject({
      stripeVersion: '2022-11-15',
      params: {
        amount: 1250,
        currency: 'usd',
        confirm: true,
        capture_method: 'manual',
        payment_method_types: ['card'],
        metadata: { attempt: req.idempotencyKey, reference: 'order <42>' },
        description: 'order <42>',
        statement_descriptor_suffix: 'Shop 42 sale',
      },
    });
    expect(pi?.params).not.toHaveProperty('off_session');
  });

  it('sends a sale with automatic capture, and a recurring charge off session', async () => {
    const sale = payment(card(), { capture: true });
    await connector.authorise(sale);
    const recurring = payment(card(), { capture: true, recurring: true });
    await connector.authorise(recurring);
    const [saleIntent] = intentsOf(sale.idempotencyKey);
    expect(saleIntent).toMatchObject({ status: 'succeeded', capture_method: 'automatic', amount_received: 1250 });
    const [sent] = received(fake, 'post /v1/payment_intents').filter((r) => r.idempotencyKey === `${recurring.idempotencyKey}:pi`);
    expect(sent?.params).toMatchObject({ off_session: true });
    expect(sent?.params).not.toHaveProperty('setup_future_usage');
  });

  it('shortens keys Stripe would find too long, the same way every time', async () => {
    const req = payment(card(), { idempotencyKey: 'k'.repeat(300) });
    const first = valueOf(await connector.authorise(req));
    expect(valueOf(await connector.authorise(req)).providerChargeId).toBe(first.providerChargeId);
    expect(fake.requests.filter((r) => r.idempotencyKey?.endsWith(':pi')).every((r) => r.idempotencyKey!.length <= 255)).toBe(true);
  });

  it('sends amounts in Stripe’s units: whole yen, ISK with two decimals, KWD in fils', async () => {
    for (const [currency, amount, sent] of [
      ['JPY', 1500n, 1500],
      ['ISK', 123n, 12300],
      ['KWD', 12_340n, 12_340],
      ['MGA', 50_000n, 500],
    ] as const) {
      const req = payment(card(), { currency, amount });
      expect(valueOf(await connector.authorise(req)).amount).toBe(amount);
      expect(intentsOf(req.idempotencyKey)[0]).toMatchObject({ amount: sent, currency: currency.toLowerCase() });
    }
  });
});

describe('amounts beyond Stripe’s maximum (eight digits; IDR twelve)', () => {
  it('takes the largest, and refuses one more with invalid_amount before calling Stripe, in authorise, capture and refund', async () => {
    expect([toStripeAmount('USD', 99_999_999n), toStripeAmount('USD', 100_000_000n)]).toEqual([99_999_999n, undefined]);
    expect([toStripeAmount('JPY', 99_999_999n), toStripeAmount('JPY', 100_000_000n)]).toEqual([99_999_999n, undefined]);
    expect([toStripeAmount('IDR', 999_999_999_999n), toStripeAmount('IDR', 1_000_000_000_000n)]).toEqual([999_999_999_999n, undefined]);
    // Beyond what Number holds exactly: never sent as a rounded number.
    expect(toStripeAmount('USD', 2n ** 60n)).toBeUndefined();

    const auth = valueOf(await connector.authorise(payment(card(), { capture: false })));
    const before = fake.requests.length;
    const tooMuch = 100_000_000n;
    const refused = [
      await connector.authorise(payment(card(), { amount: tooMuch })),
      await connector.capture(modification(auth.providerChargeId, tooMuch)),
      await connector.refund(modification(auth.providerChargeId, tooMuch)),
    ];
    for (const result of refused) expect(failureOf(result)).toMatchObject({ category: 'invalid_amount', gatewayCode: 'AMOUNT' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('cards Stripe refuses', () => {
  it('answers not_permitted when the account may not send raw card numbers', async () => {
    fake.setRawCardsAllowed(false);
    const req = payment(card());
    expect(failureOf(await connector.authorise(req))).toMatchObject({
      category: 'not_permitted',
      gatewayCode: 'RAW_CARD_DATA',
      retryable: false,
    });
    expect(failureOf(await connector.storeCard({ idempotencyKey: `s-${randomUUID()}`, source: card() })).gatewayCode).toBe('RAW_CARD_DATA');
    expect(intentsOf(req.idempotencyKey)).toEqual([]);
  });

  it('cancels a payment intent that waits for 3-D Secure, and answers authentication_required', async () => {
    const req = payment(card(TEST_CARDS.threeDSecure.number));
    expect(failureOf(await connector.authorise(req))).toMatchObject({
      category: 'authentication_required',
      gatewayCode: 'REQUIRES_ACTION',
    });
    expect(intentsOf(req.idempotencyKey)).toMatchObject([{ status: 'canceled' }]);
  });

  it('answers authentication_required for a recurring charge the card wants authenticated', async () => {
    const req = payment(card(TEST_CARDS.threeDSecure.number), { recurring: true });
    expect(failureOf(await connector.authorise(req))).toMatchObject({
      category: 'authentication_required',
      gatewayCode: 'authentication_required',
    });
    expect(intentsOf(req.idempotencyKey)).toMatchObject([{ status: 'requires_payment_method' }]);
  });

  it('answers invalid_card for a number failing the Luhn check, without creating anything', async () => {
    expect(failureOf(await connector.authorise(payment(card('4242424242424241'))))).toMatchObject({
      category: 'invalid_card',
      gatewayCode: 'incorrect_number',
    });
  });
});

describe('stored cards charged with their CVC', () => {
  it('sends the CVC as a cvc_update token, which Stripe checks', async () => {
    const stored = valueOf(
      await connector.storeCard({
        idempotencyKey: `s-${randomUUID()}`,
        source: { type: 'card', card: { number: '4000000000000101', ...EXPIRY } },
      }),
    );
    expect(stored.card).toMatchObject({ iin: '400000', last4: '0101', length: 16 });
    const source = { type: 'stored_card' as const, providerToken: stored.providerToken, providerData: stored.providerData };
    expect(valueOf(await connector.authorise(payment(source))).captured).toBe(false);
    const req = payment({ ...source, cvc: CVC });
    // 4000000000000101 fails its CVC check whenever a CVC is given.
    expect(failureOf(await connector.authorise(req))).toMatchObject({ category: 'invalid_cvc', gatewayCode: 'incorrect_cvc' });
    const [token] = received(fake, 'post /v1/tokens').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:cvc`);
    expect(token?.params).toEqual({ cvc_update: { cvc: '***' } });
    const [pi] = received(fake, 'post /v1/payment_intents').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pi`);
    expect(pi?.params).toMatchObject({
      customer: stored.providerData?.customer,
      setup_future_usage: 'off_session',
      payment_method_options: { card: { cvc_token: token?.answer?.id } },
    });
  });
});

describe('timeout, then reverse', () => {
  const piCreate = { method: 'POST', path: '/v1/payment_intents' };

  it.each([false, true])('undoes an intent made by a call whose answer was lost (capture %s)', async (capture) => {
    const { req, reverse } = kept(payment(card(), { capture }));
    fake.hangNext(piCreate, { process: true });
    expect(failureOf(await impatient.authorise(req))).toMatchObject({ category: 'timeout', gatewayCode: 'TIMEOUT', retryable: true });
    expect(intentsOf(req.idempotencyKey)).toMatchObject([{ status: capture ? 'succeeded' : 'requires_capture' }]);

    expect(valueOf(await connector.reverse(reverse()))).toBeUndefined();
    const intents = intentsOf(req.idempotencyKey);
    expect(intents).toMatchObject([{ status: capture ? 'succeeded' : 'canceled' }]);
    const refunds = fake.refunds().filter((r) => r.payment_intent === intents[0]?.id);
    expect(refunds).toMatchObject(capture ? [{ amount: 1250, status: 'succeeded' }] : []);
    // Reversing again changes nothing more.
    expect((await connector.reverse(reverse())).ok).toBe(true);
    expect(intentsOf(req.idempotencyKey)).toHaveLength(1);
    expect(fake.refunds().filter((r) => r.payment_intent === intents[0]?.id)).toHaveLength(refunds.length);
  });

  it('cancels what the replay makes when the first call never reached Stripe', async () => {
    const { req, reverse } = kept(payment(card()));
    fake.hangNext(piCreate, { process: false });
    expect(failureOf(await impatient.authorise(req)).category).toBe('timeout');
    expect(intentsOf(req.idempotencyKey)).toEqual([]);
    expect((await connector.reverse(reverse())).ok).toBe(true);
    expect(intentsOf(req.idempotencyKey)).toMatchObject([{ status: 'canceled' }]);
  });

  it('has nothing to undo when the call stopped before the payment intent', async () => {
    const { req, reverse } = kept(payment(card()));
    fake.hangNext({ method: 'POST', path: '/v1/payment_methods' }, { process: true });
    expect(failureOf(await impatient.authorise(req)).category).toBe('timeout');
    const before = fake.requests.length;
    expect((await connector.reverse(reverse())).ok).toBe(true);
    expect(fake.requests.length).toBe(before);
  });

  it('has nothing to undo for a declined call, and reverses by payment intent id when it is known', async () => {
    const declined = kept(payment(card(TEST_CARDS.declined.number)));
    expect(failureOf(await connector.authorise(declined.req)).category).toBe('do_not_honour');
    expect((await connector.reverse(declined.reverse())).ok).toBe(true);
    const approved = payment(card());
    const auth = valueOf(await connector.authorise(approved));
    expect((await connector.reverse({ idempotencyKey: approved.idempotencyKey, providerChargeId: auth.providerChargeId })).ok).toBe(true);
    expect(intentsOf(approved.idempotencyKey)).toMatchObject([{ status: 'canceled' }]);
  });

  it('cannot replay without the attempt’s parameters', async () => {
    const providerData = { paymentMethod: 'pm_card_visa', keptAt: new Date().toISOString() };
    const failure = failureOf(await connector.reverse({ idempotencyKey: 'k', providerData }));
    expect(failure).toMatchObject({ category: 'invalid_request', gatewayCode: 'REVERSE_PARAMETERS' });
  });
});

describe('reverse after Stripe forgot the key (24 h)', () => {
  // Gateway down over a weekend: the sweep reverses on restart, 25 h after the attempt.
  let clock = Date.now();
  let late: FakeStripe;
  const at = (timeoutMs: number) =>
    STRIPE.connector({ baseUrl: late.url, timeoutMs, environment: 'SANDBOX', parameters: { SecretKey: late.secretKey }, now: () => clock });
  beforeAll(async () => {
    late = await startFakeStripe({ now: () => clock });
  });
  afterEach(() => expect(late.violations).toEqual([]));
  afterAll(() => late.close());
  const lateIntents = (key: string) => late.paymentIntents().filter((pi) => (pi.metadata as Record<string, string>).attempt === key);

  it.each([
    [true, 'refunds the payment'],
    [false, 'cancels the authorisation'],
  ])('finds the intent by the attempt key instead of replaying (capture %s): %s', async (capture) => {
    const { req, reverse } = kept(payment(card(), { capture }));
    late.hangNext({ method: 'POST', path: '/v1/payment_intents' }, { process: true });
    expect(failureOf(await at(800).authorise(req)).category).toBe('timeout');
    clock += 25 * 3_600_000;
    const sent = late.requests.length;

    expect(valueOf(await at(10_000).reverse(reverse()))).toBeUndefined();
    const calls = late.requests.slice(sent).map((r) => `${r.method} ${r.operation} ${r.status}`);
    expect(calls[0]).toBe('GET /v1/payment_intents/search 200');
    expect(calls).not.toContain('POST /v1/payment_intents 200');
    const intents = lateIntents(req.idempotencyKey);
    expect(intents).toMatchObject([{ status: capture ? 'succeeded' : 'canceled' }]);
    const refunds = late.refunds().filter((r) => r.payment_intent === intents[0]?.id);
    expect(refunds).toMatchObject(capture ? [{ amount: 1250, status: 'succeeded' }] : []);
  });

  it('finds nothing, and makes nothing, when the first call never reached Stripe', async () => {
    const { req, reverse } = kept(payment(card()));
    late.hangNext({ method: 'POST', path: '/v1/payment_intents' }, { process: false });
    expect(failureOf(await at(800).authorise(req)).category).toBe('timeout');
    clock += 25 * 3_600_000;
    expect(valueOf(await at(10_000).reverse(reverse()))).toBeUndefined();
    expect(lateIntents(req.idempotencyKey)).toEqual([]);
  });

  it('answers a retryable failure when the search cannot be made, so the gateway tries again', async () => {
    const { req, reverse } = kept(payment(card()));
    late.hangNext({ method: 'POST', path: '/v1/payment_intents' }, { process: true });
    expect(failureOf(await at(800).authorise(req)).category).toBe('timeout');
    clock += 25 * 3_600_000;
    late.failNext({ method: 'GET', path: '/v1/payment_intents/search' }, { status: 500 });
    expect(failureOf(await at(10_000).reverse(reverse()))).toMatchObject({ retryable: true });
    expect(lateIntents(req.idempotencyKey)).toMatchObject([{ status: 'requires_capture' }]);
  });
});

describe('errors of Stripe and of the network', () => {
  it('answers credentials_refused for a key Stripe does not take', async () => {
    const wrong = connectorTo(fake.url, 'sk_test_51WrongKey000000000000000');
    expect(failureOf(await wrong.checkCredentials())).toMatchObject({ category: 'credentials_refused', gatewayCode: 'HTTP_401' });
  });

  it('answers a retryable failure when Stripe cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(failureOf(await connectorTo(`http://127.0.0.1:${port}`, fake.secretKey).checkCredentials())).toMatchObject({
      category: 'processor_error',
      gatewayCode: 'NETWORK',
      retryable: true,
    });
  });

  it('keeps a Stripe 500 under its key, as Stripe does', async () => {
    const req = payment(card());
    fake.failNext({ method: 'POST', path: '/v1/payment_intents' }, { status: 500 });
    expect(failureOf(await connector.authorise(req))).toMatchObject({
      category: 'processor_error',
      gatewayCode: 'HTTP_5XX',
      retryable: true,
    });
    expect(failureOf(await connector.authorise(req)).gatewayCode).toBe('HTTP_5XX');
    expect(
      received(fake, 'post /v1/payment_intents')
        .filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pi`)
        .map((r) => r.replayed),
    ).toEqual([false, true]);
  });

  it('answers a retryable failure while the same call is in flight', async () => {
    const req = payment(card());
    fake.delayNext({ method: 'POST', path: '/v1/payment_intents' }, 300);
    const [first, second] = await Promise.all([
      connector.authorise(req),
      new Promise((r) => setTimeout(r, 100)).then(() => connector.authorise(req)),
    ]);
    expect(first.ok).toBe(true);
    expect(failureOf(second)).toMatchObject({ category: 'processor_error', gatewayCode: 'idempotency_key_in_use', retryable: true });
  });

  it('refuses the same key with other parameters', async () => {
    const req = payment(card());
    valueOf(await connector.authorise(req));
    expect(failureOf(await connector.authorise({ ...req, amount: 999n }))).toMatchObject({
      category: 'invalid_request',
      gatewayCode: 'IDEMPOTENCY_ERROR',
    });
  });

  it('answers BAD_RESPONSE for a payment intent in a state it cannot read as an outcome', async () => {
    const stub = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'pi_1', object: 'payment_intent', status: 'processing', amount: 1250, currency: 'usd' }));
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    const failure = failureOf(
      await connectorTo(url, fake.secretKey).authorise(payment({ type: 'stored_card', providerToken: 'pm_card_visa' })),
    );
    await new Promise((resolve) => stub.close(resolve));
    expect(failure).toMatchObject({ category: 'processor_error', gatewayCode: 'BAD_RESPONSE', retryable: true });
  });
});

describe('refunds Stripe settles later', () => {
  it('answers a pending refund, and a refund that failed at once', async () => {
    const auth = valueOf(await connector.authorise(payment(card(), { capture: true })));
    fake.setRefundStatus('pending');
    const pending = valueOf(await connector.refund(modification(auth.providerChargeId, 500n)));
    expect(pending).toEqual({
      providerRefundId: expect.stringMatching(/^re_/),
      providerReference: pending.providerRefundId,
      pending: true,
    });
    fake.setRefundStatus('failed');
    const failed = failureOf(await connector.refund(modification(auth.providerChargeId, 500n)));
    fake.setRefundStatus('succeeded');
    expect(failed).toMatchObject({ category: 'processor_error', gatewayCode: 'REFUND_FAILED', retryable: false });
  });
});
