import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeStripe, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthoriseRequest, ProviderConnector } from '../connector.js';
import { authenticationQuery, CVC, EXPIRY, modification, payerPresent, payment, RETURN_URL, TEST_CARDS } from './scenarios.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { connectorTo, received, startStripe } from './testing.js';
import { toStripeAmount } from './currencies.js';
import { threeDsOutcome } from './three-d-secure.js';
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
  it('tells a credential check refused from an endpoint unreachable, silent, or answering something else', async () => {
    expect(await connector.checkCredentials()).toEqual({ ok: true });
    const wrong = connectorTo(fake.url, 'sk_test_51WrongKey000000000000000');
    expect(await wrong.checkCredentials()).toEqual({ ok: false, cause: 'refused', httpStatus: 401 });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await connectorTo(`http://127.0.0.1:${port}`, fake.secretKey).checkCredentials()).toEqual({ ok: false, cause: 'unreachable' });

    fake.hangNext({ method: 'GET', path: '/v1/balance' });
    expect(await impatient.checkCredentials()).toEqual({ ok: false, cause: 'timed_out', timeoutMs: 800 });

    // Not Stripe: a web server's page for an unknown path.
    const notStripe = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
    await new Promise<void>((resolve) => notStripe.listen(0, '127.0.0.1', resolve));
    const elsewhere = connectorTo(`http://127.0.0.1:${(notStripe.address() as AddressInfo).port}`, fake.secretKey);
    expect(await elsewhere.checkCredentials()).toMatchObject({ ok: false, cause: 'answered' });
    await new Promise((resolve) => notStripe.close(resolve));
  });

  it('answers a retryable failure when Stripe cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(failureOf(await connectorTo(`http://127.0.0.1:${port}`, fake.secretKey).authorise(payment(card())))).toMatchObject({
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

// 3-D Secure through Stripe's redirect, with the fake Stripe's challenge page.
const CHALLENGE = '4000000000003220';
const ALWAYS_CHALLENGED = '4000002760003184';
const DECLINED_AFTER_CHALLENGE = '4000008400001629';
const FRICTIONLESS = '4000000000003055';
const CHALLENGE_PASSED = { flow: 'challenge', transStatus: 'Y', version: '2.2.0', liabilityShift: true };

/** Authorises with a payer who can be redirected: the payment waits for its challenge. */
async function challenged(number: string, extra: Partial<AuthoriseRequest> = {}) {
  const req = payment(card(number), { authentication: payerPresent(), ...extra });
  const auth = valueOf(await connector.authorise(req));
  return {
    req,
    auth,
    result: (returned?: Record<string, string>) =>
      connector.authenticationResult(authenticationQuery(req, auth.providerChargeId, returned)),
  };
}

/** The query Stripe's return brings back, from the address the challenge page sends the browser to. */
const returnedFrom = (address: string) => Object.fromEntries(new URL(address).searchParams);

describe('authorise with a payer who can authenticate', () => {
  it('confirms with the return URL and request_three_d_secure, never use_stripe_sdk, and answers the challenge page to send the browser to', async () => {
    const { req, auth } = await challenged(CHALLENGE);
    expect(auth).toEqual({
      providerChargeId: expect.stringMatching(/^pi_/),
      captured: false,
      amount: 1250n,
      card: { iin: '400000', last4: '3220', length: 16, ...EXPIRY, cardholder: 'Ada Lovelace' },
      challenge: { redirect: { url: fake.challengeUrl(auth.providerChargeId), method: 'GET' } },
    });
    const [sent] = received(fake, 'post /v1/payment_intents').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pi`);
    expect(sent?.params).toMatchObject({
      confirm: true,
      return_url: RETURN_URL,
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
      expand: ['latest_charge'],
    });
    expect(sent?.params).not.toHaveProperty('use_stripe_sdk');
    // Waiting for the payer, not cancelled.
    expect(fake.paymentIntents().find((pi) => pi.id === auth.providerChargeId)).toMatchObject({ status: 'requires_action' });
  });

  it('asks for authentication whatever the issuer says when the merchant requests it', async () => {
    const { req, auth } = await challenged(FRICTIONLESS, { authentication: payerPresent('any') });
    expect(auth.challenge).toBeDefined();
    const [sent] = received(fake, 'post /v1/payment_intents').filter((r) => r.idempotencyKey === `${req.idempotencyKey}:pi`);
    expect(sent?.params).toMatchObject({ payment_method_options: { card: { request_three_d_secure: 'any' } } });
  });

  it('answers a frictionless authentication at once: authorised, with transStatus Y and no challenge', async () => {
    const auth = valueOf(await connector.authorise(payment(card(FRICTIONLESS), { capture: true, authentication: payerPresent() })));
    expect(auth).toMatchObject({
      captured: true,
      threeDs: { flow: 'frictionless', transStatus: 'Y', version: '2.2.0', liabilityShift: true },
    });
    expect(auth).not.toHaveProperty('challenge');
    // Without a payer who can be redirected, nothing is authenticated.
    const plain = valueOf(await connector.authorise(payment(card(FRICTIONLESS), { capture: true })));
    expect(plain).not.toHaveProperty('threeDs');
  });

  it('answers unsupported for an authentication run elsewhere, without calling Stripe', async () => {
    const before = fake.requests.length;
    const externalThreeDs = {
      eci: '05',
      authenticationValue: 'AAABBBCCC',
      dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      threeDsVersion: '2.2.0',
    };
    expect(failureOf(await connector.authorise(payment(card(CHALLENGE), { externalThreeDs })))).toMatchObject({
      category: 'unsupported',
      gatewayMessage: 'Providers of type stripe do not offer authentication run elsewhere',
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe('authenticationResult after the payer’s return', () => {
  it.each([
    [false, 'requires_capture'],
    [true, 'succeeded'],
  ])('answers authorised (captured %s) once the challenge is completed, with transStatus Y', async (capture, status) => {
    const { auth, result } = await challenged(CHALLENGE, { capture });
    expect(valueOf(await result())).toEqual({ state: 'waiting' });
    const returned = returnedFrom(fake.completeChallenge(auth.providerChargeId, 'complete'));
    expect(returned).toEqual({ state: 'abc', payment_intent: auth.providerChargeId, payment_intent_client_secret: expect.any(String) });
    expect(fake.paymentIntents().find((pi) => pi.id === auth.providerChargeId)?.status).toBe(status);
    expect(valueOf(await result(returned))).toEqual({
      state: 'authorised',
      authorisation: { providerChargeId: auth.providerChargeId, captured: capture, amount: 1250n, threeDs: CHALLENGE_PASSED },
    });
  });

  it('answers failed, authentication_required with transStatus N, when the payer fails the challenge', async () => {
    const { auth, result } = await challenged(ALWAYS_CHALLENGED);
    const returned = returnedFrom(fake.completeChallenge(auth.providerChargeId, 'fail'));
    expect(valueOf(await result(returned))).toEqual({
      state: 'failed',
      failure: expect.objectContaining({
        category: 'authentication_required',
        gatewayCode: 'payment_intent_authentication_failure',
        retryable: false,
      }),
      threeDs: { transStatus: 'N', liabilityShift: false },
    });
  });

  it('answers the issuer’s decline after a passed challenge as the code table does, with the authentication', async () => {
    const { auth, result } = await challenged(DECLINED_AFTER_CHALLENGE);
    fake.completeChallenge(auth.providerChargeId, 'complete');
    expect(valueOf(await result())).toEqual({
      state: 'failed',
      failure: expect.objectContaining({ category: 'do_not_honour', gatewayCode: 'card_declined/generic_decline' }),
      threeDs: CHALLENGE_PASSED,
    });
  });

  it('refuses a return that names another payment intent, without asking Stripe', async () => {
    const { auth, result } = await challenged(CHALLENGE);
    const other = await challenged(CHALLENGE);
    const before = fake.requests.length;
    expect(failureOf(await result({ payment_intent: other.auth.providerChargeId }))).toMatchObject({
      category: 'invalid_request',
      gatewayCode: 'OTHER_PAYMENT',
      retryable: false,
    });
    expect(fake.requests.length).toBe(before);
    fake.completeChallenge(auth.providerChargeId, 'complete');
    expect(valueOf(await result({ payment_intent: auth.providerChargeId })).state).toBe('authorised');
  });

  it('refuses a payment intent of another attempt, amount or currency', async () => {
    const { req, auth } = await challenged(CHALLENGE);
    for (const wrong of [{ idempotencyKey: 'another-attempt' }, { amount: 1251n }, { currency: 'EUR' }]) {
      const query = authenticationQuery({ ...req, ...wrong }, auth.providerChargeId);
      expect(failureOf(await connector.authenticationResult(query)).gatewayCode).toBe('OTHER_PAYMENT');
    }
  });

  it('answers a payment intent Stripe does not know as not found', async () => {
    const req = payment(card(CHALLENGE));
    expect(failureOf(await connector.authenticationResult(authenticationQuery(req, 'pi_unknown000000000000000')))).toMatchObject({
      category: 'not_found',
      gatewayCode: 'resource_missing',
    });
  });
});

describe('a payment the gateway gives up waiting for', () => {
  it('cancels a payment intent waiting for its challenge, which the payer can no longer complete', async () => {
    const { req, auth, result } = await challenged(CHALLENGE);
    valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey, providerChargeId: auth.providerChargeId }));
    expect(fake.paymentIntents().find((pi) => pi.id === auth.providerChargeId)).toMatchObject({ status: 'canceled' });
    fake.completeChallenge(auth.providerChargeId, 'complete');
    expect(valueOf(await result())).toEqual({
      state: 'failed',
      failure: expect.objectContaining({ category: 'authentication_required', gatewayCode: 'CANCELED' }),
    });
  });

  it('replays the attempt with its return URL when its answer was lost, and cancels what waits', async () => {
    const { req, reverse } = kept(payment(card(CHALLENGE), { authentication: payerPresent() }));
    fake.hangNext({ method: 'POST', path: '/v1/payment_intents' }, { process: true });
    expect(failureOf(await impatient.authorise(req)).category).toBe('timeout');
    valueOf(await connector.reverse(reverse()));
    expect(intentsOf(req.idempotencyKey)).toMatchObject([{ status: 'canceled' }]);
  });

  it('refunds a payment the payer completed while it was being cancelled', async () => {
    const { req, auth } = await challenged(CHALLENGE, { capture: true });
    fake.delayNext({ method: 'POST', path: `/v1/payment_intents/${auth.providerChargeId}/cancel` }, 300);
    const reversing = connector.reverse({ idempotencyKey: req.idempotencyKey, providerChargeId: auth.providerChargeId });
    await new Promise((resolve) => setTimeout(resolve, 100));
    fake.completeChallenge(auth.providerChargeId, 'complete');
    valueOf(await reversing);
    expect(fake.refunds().filter((r) => r.payment_intent === auth.providerChargeId)).toMatchObject([{ amount: 1250, status: 'succeeded' }]);
  });
});

describe('Stripe’s 3-D Secure result as EMV transStatus', () => {
  it.each([
    [
      { result: 'authenticated', authentication_flow: 'challenge' },
      { flow: 'challenge', transStatus: 'Y', liabilityShift: true },
    ],
    [
      { result: 'attempt_acknowledged', authentication_flow: null },
      { transStatus: 'A', liabilityShift: true },
    ],
    [
      { result: 'failed', result_reason: 'abandoned' },
      { transStatus: 'N', liabilityShift: false },
    ],
    [
      { result: 'failed', result_reason: 'rejected' },
      { transStatus: 'R', liabilityShift: false },
    ],
    [
      { result: 'not_supported', result_reason: 'card_not_enrolled' },
      { transStatus: 'U', liabilityShift: false },
    ],
    [
      { result: 'processing_error', result_reason: 'protocol_error' },
      { transStatus: 'U', liabilityShift: false },
    ],
    [
      { result: 'exempted', version: '2.2.0' },
      { version: '2.2.0', liabilityShift: false },
    ],
    [{ result: null }, { liabilityShift: false }],
  ])('reads %j as %j', (details, outcome) => {
    expect(threeDsOutcome(details)).toEqual(outcome);
  });
});
