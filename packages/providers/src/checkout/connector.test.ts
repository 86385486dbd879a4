import { startFakeCheckout, type FakeCheckout } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthoriseRequest } from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { createCheckoutConnector, LISTING_DELAY_MS, type CheckoutConnectorConfig } from './connector.js';
import { APPROVED, attemptKey, card, checkoutScenarios, THREE_D_SECURE } from './scenarios.js';

const SECRET_KEY = 'sk_sbox_fakegatewaytestkey0001';
const CHANNEL = 'pc_fakegatewaychannel0001';

let fake: FakeCheckout;
/** A connector of a provider with webhooks (a WebhookSecret) unless told otherwise, quick to give up waiting for an action. */
const connector = (options: Partial<CheckoutConnectorConfig> = {}) =>
  createCheckoutConnector({
    baseUrl: fake.url,
    timeoutMs: 2_000,
    secretKey: SECRET_KEY,
    processingChannelId: CHANNEL,
    webhooks: true,
    confirmWaitsMs: [20, 20],
    ...options,
  });
const payment = (capture = false, number = APPROVED): AuthoriseRequest => ({
  idempotencyKey: attemptKey(),
  amount: 1000n,
  currency: 'EUR',
  capture,
  source: { type: 'card', card: card(number) },
});

beforeAll(async () => {
  fake = await startFakeCheckout({ secretKey: SECRET_KEY, webhookSecret: 'whsec-fake-checkout-0001' });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.holdActions(false);
  fake.setSearchLag(0);
  // Every request the connector sent met the schema written from Checkout.com's reference.
  expect(fake.violations).toEqual([]);
});

describe('against the fake Checkout.com', () => {
  checkoutScenarios(() => ({ connector: connector(), wrongKey: connector({ secretKey: 'sk_sbox_notthekeyatall000001' }) }));

  it('sends every money-moving call with a Cko-Idempotency-Key derived from the attempt, the attempt as reference', async () => {
    const key = attemptKey();
    valueOf(
      await connector().authorise({
        idempotencyKey: key,
        amount: 1000n,
        currency: 'EUR',
        capture: true,
        source: { type: 'card', card: card() },
      }),
    );
    const sent = fake.requests.filter((r) => r.idempotencyKey?.startsWith(key));
    expect(sent.map((r) => [r.route, r.idempotencyKey])).toEqual([
      ['/payments', `${key}:payment`],
      ['/payments/{id}/captures', `${key}:capture`],
    ]);
    expect(fake.payments().find((p) => p.reference === key)).toMatchObject({ captured: 1000, amount: 1000 });
  });

  it('marks a repeat on a stored card merchant-initiated, linked to the payment that stored it', async () => {
    const stored = valueOf(await connector().storeCard({ idempotencyKey: attemptKey(), source: { type: 'card', card: card() } }));
    const key = attemptKey();
    valueOf(
      await connector().authorise({
        idempotencyKey: key,
        amount: 500n,
        currency: 'AUD',
        capture: false,
        recurring: true,
        source: { type: 'stored_card', providerToken: stored.providerToken, providerData: stored.providerData },
      }),
    );
    expect(fake.payments().find((p) => p.reference === key)).toMatchObject({
      merchantInitiated: true,
      cvvSent: false,
      sourceId: stored.providerToken,
    });
  });

  it('reverses a sale whose capture answer was lost: the capture is refunded, nothing stays held', async () => {
    const { req, reverse } = kept(payment(true));
    fake.injectFault({ kind: 'hang', processed: true }, { method: 'POST', route: '/payments/{id}/captures' });
    const lost = failureOf(await connector({ timeoutMs: 300 }).authorise(req));
    expect(lost).toMatchObject({ category: 'timeout', retryable: true });
    valueOf(await connector().reverse(reverse()));
    const held = fake.payments().find((p) => p.reference === req.idempotencyKey)!;
    expect(held).toMatchObject({ captured: 1000, refunded: 1000 });
  });

  it('reverses an attempt of which nothing reached Checkout.com: asked again while recent, nothing to do once the search must list it', async () => {
    let clock = Date.now();
    const timed = (options: Partial<CheckoutConnectorConfig> = {}) => connector({ now: () => clock, ...options });
    const { req, reverse } = kept(payment());
    fake.injectFault({ kind: 'hang', processed: false }, { method: 'POST', route: '/payments' });
    expect(failureOf(await timed({ timeoutMs: 300 }).authorise(req)).category).toBe('timeout');
    expect(reverse().providerData).toEqual({ sentAt: new Date(clock).toISOString() });
    expect(failureOf(await timed().reverse(reverse()))).toMatchObject({ gatewayCode: 'NOT_LISTED_YET', retryable: true });
    clock += LISTING_DELAY_MS - 1;
    expect(failureOf(await timed().reverse(reverse())).gatewayCode).toBe('NOT_LISTED_YET');
    clock += 1;
    valueOf(await timed().reverse(reverse()));
    expect(fake.payments().filter((p) => p.reference === req.idempotencyKey)).toEqual([]);
  });

  it('reverses a payment Checkout.com’s search does not list yet once it does, never taking the empty answer as final', async () => {
    const { req, reverse } = kept(payment());
    fake.setSearchLag(60_000);
    fake.injectFault({ kind: 'hang', processed: true }, { method: 'POST', route: '/payments' });
    expect(failureOf(await connector({ timeoutMs: 300 }).authorise(req)).category).toBe('timeout');
    const made = () => fake.payments().find((p) => p.reference === req.idempotencyKey)!;
    expect(failureOf(await connector().reverse(reverse()))).toMatchObject({ gatewayCode: 'NOT_LISTED_YET', retryable: true });
    expect(made()).toMatchObject({ status: 'Authorized', voided: false });
    fake.setSearchLag(0);
    valueOf(await connector().reverse(reverse()));
    expect(made()).toMatchObject({ status: 'Voided', voided: true });
  });

  it('counts a reversal answered 202 done only once the payment shows it: accepted is not made', async () => {
    const { providerChargeId } = valueOf(await connector().authorise(payment()));
    const request = { idempotencyKey: attemptKey(), providerChargeId };
    fake.holdActions(true);
    expect(failureOf(await connector().reverse(request))).toMatchObject({ gatewayCode: 'REVERSAL_PENDING', retryable: true });
    expect(failureOf(await connector().reverse(request)).gatewayCode).toBe('REVERSAL_PENDING');
    expect(fake.payment(providerChargeId)).toMatchObject({ status: 'Authorized', voided: false });
    fake.holdActions(false);
    valueOf(await connector().reverse(request));
    expect(fake.payment(providerChargeId)).toMatchObject({ status: 'Voided' });
    // Asked three times, voided once: the repeat carried the same key, and the last found it made.
    expect(fake.payment(providerChargeId)!.actions.filter((a) => a.type === 'Void')).toHaveLength(1);
    const reversals = fake.requests.filter((r) => r.path === `/payments/${providerChargeId}/reversals`);
    expect(reversals).toHaveLength(2);
  });

  it('leaves a payment waiting for its payer until Checkout.com decides it: declined when its session ends, it holds nothing', async () => {
    const authentication = { returnUrl: 'https://gateway.example/r', origin: 'https://shop.example', browser: {}, merchantName: 'Shop' };
    const { providerChargeId } = valueOf(await connector().authorise({ ...payment(false, THREE_D_SECURE), authentication }));
    const request = { idempotencyKey: attemptKey(), providerChargeId };
    expect(failureOf(await connector().reverse(request))).toMatchObject({ gatewayCode: 'PAYMENT_PENDING', retryable: true });
    fake.expireChallenge(providerChargeId);
    valueOf(await connector().reverse(request));
    expect(fake.payment(providerChargeId)).toMatchObject({ status: 'Declined', responseCode: '20152' });
    expect(fake.requests.filter((r) => r.path === `/payments/${providerChargeId}/reversals`)).toEqual([]);
  });

  it('reverses each payment found under the attempt’s reference with an idempotency key of its own', async () => {
    const key = attemptKey();
    // Two payments under one reference (the same request sent again under another key).
    for (const again of ['first', 'second']) {
      const made = await fetch(`${fake.url}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json', 'cko-idempotency-key': `${again}-${key}` },
        body: JSON.stringify({
          source: { type: 'card', number: APPROVED, expiry_month: 12, expiry_year: 2030, cvv: '100' },
          amount: 1000,
          currency: 'EUR',
          capture: false,
          processing_channel_id: CHANNEL,
          reference: key,
        }),
      });
      expect(made.status).toBe(201);
    }
    valueOf(await connector().reverse({ idempotencyKey: key }));
    const made = fake.payments().filter((p) => p.reference === key);
    expect(made.map((p) => p.status)).toEqual(['Voided', 'Voided']);
    const keys = fake.requests.filter((r) => made.some((p) => r.path === `/payments/${p.id}/reversals`)).map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
  });

  it('releases a sale whose capture is refused for good, and answers the refusal', async () => {
    fake.injectFault(
      { kind: 'error', status: 403, errorCodes: ['action_not_allowed'] },
      { method: 'POST', route: '/payments/{id}/captures' },
    );
    const { req } = kept(payment(true));
    expect(failureOf(await connector().authorise(req))).toMatchObject({ gatewayCode: 'action_not_allowed', retryable: false });
    expect(fake.payments().find((p) => p.reference === req.idempotencyKey)).toMatchObject({ status: 'Voided' });
  });

  it('answers an unknown outcome for a sale whose capture is refused and whose release fails: the gateway’s reversal releases it', async () => {
    fake.injectFault(
      { kind: 'error', status: 403, errorCodes: ['action_not_allowed'] },
      { method: 'POST', route: '/payments/{id}/captures' },
    );
    fake.injectFault({ kind: 'error', status: 500 }, { method: 'POST', route: '/payments/{id}/reversals' });
    const { req, reverse } = kept(payment(true));
    const refused = failureOf(await connector().authorise(req));
    expect(refused).toMatchObject({ category: 'processor_error', gatewayCode: 'action_not_allowed', retryable: true });
    const made = () => fake.payments().find((p) => p.reference === req.idempotencyKey)!;
    expect(made()).toMatchObject({ status: 'Authorized', voided: false });
    valueOf(await connector().reverse(reverse()));
    expect(made()).toMatchObject({ status: 'Voided' });
  });

  it('without webhooks, confirms a capture, refund or void by reading the payment’s actions: done, refused, or asked again', async () => {
    const reading = connector({ webhooks: false });
    const sale = valueOf(await reading.authorise(payment(true)));
    expect(sale).toMatchObject({ captured: true, capture: { providerReference: expect.stringMatching(/^act_/) } });
    expect(sale.capture?.pending).toBeUndefined();
    const id = sale.providerChargeId;
    const refund = { providerChargeId: id, amount: 250n, currency: 'EUR', idempotencyKey: attemptKey() };
    fake.holdActions(true);
    // Accepted, not made yet: an unknown outcome, never "pending" (no webhook would ever settle it).
    expect(failureOf(await reading.refund(refund))).toMatchObject({ gatewayCode: 'ACTION_UNCONFIRMED', retryable: true });
    fake.holdActions(false);
    // The confirming job's call: the same key, the same action, now made.
    const confirmed = valueOf(await reading.refund(refund));
    expect(confirmed).toEqual({ providerReference: expect.stringMatching(/^act_/), providerRefundId: confirmed.providerReference });
    expect(fake.payment(id)).toMatchObject({ refunded: 250 });

    const { providerChargeId } = valueOf(await reading.authorise(payment()));
    fake.failNextAction('void');
    const voided = failureOf(await reading.void({ providerChargeId, idempotencyKey: attemptKey() }));
    expect(voided).toMatchObject({ gatewayCode: 'payment_void_declined', retryable: false });
  });

  it('3-D Secure: a 202 with _links.redirect is a challenge; the result is asked of Checkout.com, then a sale is captured', async () => {
    const returnUrl = 'https://gateway.example/charge/ch_1/return';
    const req = {
      idempotencyKey: attemptKey(),
      amount: 1500n,
      currency: 'EUR',
      capture: true,
      source: { type: 'card' as const, card: card(THREE_D_SECURE) },
      authentication: { returnUrl, origin: 'https://shop.example', browser: {}, merchantName: 'Shop' },
    };
    const pending = valueOf(await connector().authorise(req));
    expect(pending).toMatchObject({ captured: false, challenge: { redirect: { method: 'GET' } } });
    const resultRequest = {
      providerChargeId: pending.providerChargeId,
      idempotencyKey: req.idempotencyKey,
      amount: 1500n,
      currency: 'EUR',
      capture: true,
    };
    expect(valueOf(await connector().authenticationResult(resultRequest))).toEqual({ state: 'waiting' });
    const back = fake.completeChallenge(pending.providerChargeId, 'pass');
    expect(back.startsWith(`${returnUrl}?cko-session-id=sid_`)).toBe(true);
    // The query is never trusted: the result comes from GET /payments/{id}.
    const result = valueOf(await connector().authenticationResult({ ...resultRequest, returned: { 'cko-session-id': 'forged' } }));
    expect(result).toMatchObject({
      state: 'authorised',
      authorisation: {
        captured: true,
        capture: { pending: true },
        threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', liabilityShift: true },
      },
    });
  });

  it('3-D Secure failed: the payment fails with 20151', async () => {
    const req = {
      idempotencyKey: attemptKey(),
      amount: 1500n,
      currency: 'EUR',
      capture: false,
      source: { type: 'card' as const, card: card(THREE_D_SECURE) },
      authentication: { returnUrl: 'https://gateway.example/r', origin: 'https://shop.example', browser: {}, merchantName: 'Shop' },
    };
    const pending = valueOf(await connector().authorise(req));
    fake.completeChallenge(pending.providerChargeId, 'fail');
    const result = valueOf(await connector().authenticationResult({ ...req, providerChargeId: pending.providerChargeId }));
    expect(result).toMatchObject({
      state: 'failed',
      failure: { category: 'authentication_required', gatewayCode: '20151' },
      threeDs: { transStatus: 'N' },
    });
  });

  it('refuses an amount Checkout.com cannot carry (beyond 2^53, or a currency it does not take) before any call', async () => {
    const before = fake.requests.length;
    const refused = failureOf(await connector().authorise({ ...payment(), amount: 2n ** 60n }));
    expect(refused.category).toBe('invalid_amount');
    expect(fake.requests.length).toBe(before);
  });
});
