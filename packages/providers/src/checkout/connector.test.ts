import { startFakeCheckout, type FakeCheckout } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, kept, valueOf } from '../testing.js';
import { createCheckoutConnector } from './connector.js';
import { APPROVED, attemptKey, card, checkoutScenarios, THREE_D_SECURE } from './scenarios.js';

const SECRET_KEY = 'sk_sbox_fakegatewaytestkey0001';
const CHANNEL = 'pc_fakegatewaychannel0001';

let fake: FakeCheckout;
const connector = (secretKey = SECRET_KEY, timeoutMs = 2_000) =>
  createCheckoutConnector({ baseUrl: fake.url, timeoutMs, secretKey, processingChannelId: CHANNEL });

beforeAll(async () => {
  fake = await startFakeCheckout({ secretKey: SECRET_KEY, webhookSecret: 'whsec-fake-checkout-0001' });
});
afterAll(() => fake.close());
// Every request the connector sent met the schema written from Checkout.com's reference.
afterEach(() => expect(fake.violations).toEqual([]));

describe('against the fake Checkout.com', () => {
  checkoutScenarios(() => ({ connector: connector(), wrongKey: connector('sk_sbox_notthekeyatall000001') }));

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
    const { req, reverse } = kept({
      idempotencyKey: attemptKey(),
      amount: 1000n,
      currency: 'EUR',
      capture: true,
      source: { type: 'card', card: card() },
    });
    fake.injectFault({ kind: 'hang', processed: true }, { method: 'POST', route: '/payments/{id}/captures' });
    const lost = failureOf(await connector(SECRET_KEY, 300).authorise(req));
    expect(lost).toMatchObject({ category: 'timeout', retryable: true });
    valueOf(await connector().reverse(reverse()));
    const held = fake.payments().find((p) => p.reference === req.idempotencyKey)!;
    expect(held).toMatchObject({ captured: 1000, refunded: 1000 });
  });

  it('reverses an attempt of which nothing reached Checkout.com: nothing to find, nothing done', async () => {
    const { req, reverse } = kept({
      idempotencyKey: attemptKey(),
      amount: 1000n,
      currency: 'EUR',
      capture: false,
      source: { type: 'card', card: card() },
    });
    fake.injectFault({ kind: 'hang', processed: false }, { method: 'POST', route: '/payments' });
    expect(failureOf(await connector(SECRET_KEY, 300).authorise(req)).category).toBe('timeout');
    valueOf(await connector().reverse(reverse()));
    expect(fake.payments().filter((p) => p.reference === req.idempotencyKey)).toEqual([]);
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
    const refused = failureOf(
      await connector().authorise({
        idempotencyKey: attemptKey(),
        amount: 2n ** 60n,
        currency: 'EUR',
        capture: false,
        source: { type: 'card', card: card(APPROVED) },
      }),
    );
    expect(refused.category).toBe('invalid_amount');
    expect(fake.requests.length).toBe(before);
  });
});
