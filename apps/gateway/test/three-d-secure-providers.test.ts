import { randomUUID } from 'node:crypto';
import { startFakeStripe, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../src/gateway';
import type { TestAccount } from './harness';
import { webhookTestbed } from './webhook-receiver';

/**
 * 3-D Secure at the real provider types, against their fakes (which check every request and answer
 * against the providers' published descriptions): the same flow as on the simulated acquirer
 * (three-d-secure.test.ts), with the provider's own challenge page, return parameters and events.
 */
const STRIPE_KEY = 'sk_test_51FakeGatewayThreeDSecure0001';
const STRIPE_WEBHOOK_SECRET = 'whsec_threeDSecureTestSecret0123456789';
const MERCHANT_RETURN = 'https://shop.example/checkout/3ds-done';
const stripeCard = (number: string) => ({ cardNumber: number, expiryDate: '12/30', ccv: '123', cardholder: 'Test Payer' });

const options: Partial<GatewayOptions> = { threeDsTimeoutSeconds: 10 };
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  // Read by the testbed's own beforeAll, which runs after this one.
  options.providerEndpoints = { stripe: stripe.url };
});
const bed = webhookTestbed(options);
afterAll(async () => {
  expect(stripe.violations).toEqual([]);
  await stripe?.close();
});

/** A GET that does not follow redirects: its status and Location. */
async function visit(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

/** Where the gateway finally sends the payer's browser: the merchant's URL with chargeId and status. */
async function backAtMerchant(returnUrl: string) {
  const back = await visit(returnUrl);
  expect(back.status).toBe(303);
  return new URL(back.location!);
}

describe('3-D Secure at stripe', () => {
  let a: TestAccount;
  let providerId: string;
  beforeAll(async () => {
    ({ a } = await bed.subscribedAccount('/stripe-3ds', ['Transaction']));
    const created = await a.api.post('/provider', {
      type: 'stripe',
      name: 'Stripe',
      currency: 'EUR',
      authenticationParameters: { SecretKey: STRIPE_KEY, WebhookSecret: STRIPE_WEBHOOK_SECRET },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    providerId = String(created.body.providerId);
  });

  const pay = (number: string, extra: Record<string, unknown> = {}) =>
    a.api.post('/charge/card', {
      amount: 25,
      currency: 'EUR',
      providerId,
      threeDSNotificationUrl: MERCHANT_RETURN,
      paymentInformation: stripeCard(number),
      ...extra,
    });

  /** A charge waiting for its payer, its gateway URL opened: the payment intent, and the fake's challenge page it led to. */
  async function challenged(number: string, extra: Record<string, unknown> = {}) {
    const started = await pay(number, extra);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'PENDING', threeDsVerified: false });
    const chargeId = String(started.body.chargeId);
    const paymentIntent = String(started.body.providerChargeId);
    const toStripe = await visit(String(started.body.threeDsRedirectUrl));
    expect(toStripe).toEqual({ status: 303, location: stripe.challengeUrl(paymentIntent) });
    return { chargeId, paymentIntent };
  }

  it('challenge passed: the payer comes back, the gateway asks Stripe and completes the charge', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220');
    const merchant = await backAtMerchant(stripe.completeChallenge(paymentIntent, 'complete'));
    expect(Object.fromEntries(merchant.searchParams)).toEqual({ chargeId, status: 'SUCCESS' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'challenge', transStatus: 'Y', liabilityShift: true },
    });
  });

  it('authorises only when capture is false: AUTHORISE after the challenge', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220', { capture: false });
    expect((await backAtMerchant(stripe.completeChallenge(paymentIntent, 'complete'))).searchParams.get('status')).toBe('AUTHORISE');
    expect((await a.api.post(`/charge/${chargeId}/capture`, {})).body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true });
  });

  it.each([
    { name: 'a failed challenge', number: '4000000000003220', outcome: 'fail' as const, code: 18 },
    { name: 'an issuer decline after a passed challenge', number: '4000008400001629', outcome: 'complete' as const, code: 43 },
  ])('$name ends FAILED with code $code', async ({ number, outcome, code }) => {
    const { chargeId, paymentIntent } = await challenged(number);
    expect((await backAtMerchant(stripe.completeChallenge(paymentIntent, outcome))).searchParams.get('status')).toBe('FAILED');
    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(charge.status).toBe('FAILED');
    expect(charge.failedAttempts).toEqual([expect.objectContaining({ errorCode: String(code) })]);
  });

  it('a notification before the return completes the charge; the return then changes nothing; the payment is made once', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220');
    const returnUrl = stripe.completeChallenge(paymentIntent, 'complete');
    const [succeeded] = stripe.events({ type: 'payment_intent.succeeded', paymentIntent });
    const notified = await stripe.sendEvent(`${bed.t.url}/provider/${providerId}/notification`, succeeded!, STRIPE_WEBHOOK_SECRET);
    expect(notified.status).toBe(200);
    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(charge).toMatchObject({ status: 'SUCCESS', threeDsVerified: true });
    // The payer's return and a reload, at once: the same answer, nothing more.
    const [first, second] = await Promise.all([backAtMerchant(returnUrl), backAtMerchant(returnUrl)]);
    expect([first.searchParams.get('status'), second.searchParams.get('status')]).toEqual(['SUCCESS', 'SUCCESS']);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toEqual(charge);
    const intent = stripe.paymentIntents().find((pi) => pi.id === paymentIntent);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 2500, amount_received: 2500 });
  });

  it('a payer who never comes back: the gateway gives up after the timeout, cancels the payment intent and fails the charge (94)', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220');
    await bed.advance(11_000);
    expect((await a.api.get(`/charge/${chargeId}`)).body.status).toBe('FAILED');
    expect((await bed.t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).failureCode).toBe(94);
    expect(stripe.paymentIntents().find((pi) => pi.id === paymentIntent)).toMatchObject({ status: 'canceled' });
  });

  it('frictionless: SUCCESS at once and verified; an authentication run elsewhere is refused (FeatureUnavailable), never dropped', async () => {
    expect((await pay('4000000000003055')).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'frictionless' },
    });
    const external = { eci: '05', authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', dsTransID: randomUUID(), threeDsVersion: '2.2.0' };
    const refused = await pay('4242424242424242', {
      paymentInformation: { ...stripeCard('4242424242424242'), externalThreeDsData: external },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 32 } });
  });
});
