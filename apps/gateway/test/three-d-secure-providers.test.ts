import { startFakeAdyen, startFakeStripe, type FakeAdyen, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../src/gateway';
import { externalThreeDs, visit, type TestAccount } from './harness';
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
const ADYEN = {
  ApiKey: 'AQEfake-api-key-for-three-d-secure-test',
  MerchantAccount: 'GatewayThreeDSecureECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const adyenCard = (number: string) => ({
  cardNumber: number,
  expiryDate: '03/30',
  ccv: number.startsWith('37') ? '7373' : '737',
  cardholder: 'Test Payer',
});

const options: Partial<GatewayOptions> = { threeDsTimeoutSeconds: 10 };
let stripe: FakeStripe;
let adyen: FakeAdyen;
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  adyen = await startFakeAdyen({ apiKey: ADYEN.ApiKey, merchantAccount: ADYEN.MerchantAccount, hmacKey: ADYEN.HmacKey });
  // Read by the testbed's own beforeAll, which runs after this one.
  options.providerEndpoints = { stripe: stripe.url, adyen: new URL(adyen.url).origin };
});
const bed = webhookTestbed(options);
afterAll(async () => {
  // Every request the gateway sent and every answer the fakes gave matched the providers' descriptions.
  expect(stripe.violations).toEqual([]);
  expect(adyen.violations).toEqual([]);
  await stripe?.close();
  await adyen?.close();
});

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
    expect(toStripe).toMatchObject({ status: 303, location: stripe.challengeUrl(paymentIntent) });
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

  it('a cancellation Stripe refuses for good: the charge stays PROCESSING (PENDING to the API, never FAILED while Stripe may hold it) and the job is left for staff', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220');
    stripe.failNext(
      { method: 'POST', path: `/v1/payment_intents/${paymentIntent}/cancel` },
      { status: 400, type: 'invalid_request_error', code: 'payment_intent_unexpected_state' },
    );
    await bed.advance(11_000);
    const row = await bed.t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } });
    expect(row.status).toBe('PROCESSING');
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'PENDING', threeDsRedirectUrl: null });
    const job = await bed.t.gateway.database.prisma.job.findFirstOrThrow({
      where: { queue: 'charge.threeds-timeout', dedupeKey: `3ds-timeout:${chargeId}` },
    });
    expect(job).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(job.lastError).toContain('refuses to cancel');
  });

  it('a payer who passed the challenge but never came back: the timeout asks Stripe first and keeps the payment', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003220');
    stripe.completeChallenge(paymentIntent, 'complete');
    await bed.advance(11_000);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true, failedAttempts: [] });
    expect(stripe.paymentIntents().find((pi) => pi.id === paymentIntent)).toMatchObject({ status: 'succeeded', amount_received: 2500 });
  });

  it('threeDSRequest any (our extension) has Stripe ask for authentication a card would pass without', async () => {
    const { chargeId, paymentIntent } = await challenged('4000000000003055', { threeDSRequest: 'any' });
    const sent = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && (r.answer as { id?: string } | undefined)?.id === paymentIntent,
    );
    expect(sent?.params).toMatchObject({ payment_method_options: { card: { request_three_d_secure: 'any' } } });
    expect((await backAtMerchant(stripe.completeChallenge(paymentIntent, 'complete'))).searchParams.get('status')).toBe('SUCCESS');
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', threeDs: { flow: 'challenge' } });
  });

  it('frictionless: SUCCESS at once and verified; an authentication run elsewhere is refused (FeatureUnavailable), never dropped', async () => {
    expect((await pay('4000000000003055')).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'frictionless' },
    });
    const external = externalThreeDs();
    const refused = await pay('4242424242424242', {
      paymentInformation: { ...stripeCard('4242424242424242'), externalThreeDsData: external },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 32 } });
  });
});

describe('3-D Secure at adyen', () => {
  let a: TestAccount;
  let providerId: string;
  beforeAll(async () => {
    ({ a } = await bed.subscribedAccount('/adyen-3ds', ['Transaction']));
    const created = await a.api.post('/provider', { type: 'adyen', name: 'Adyen', currency: 'EUR', authenticationParameters: ADYEN });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    providerId = String(created.body.providerId);
  });
  const notificationUrl = () => `${bed.t.url}/provider/${providerId}/notification`;

  const pay = (number: string, extra: Record<string, unknown> = {}) =>
    a.api.post(
      '/charge/card',
      { amount: 25, currency: 'EUR', providerId, threeDSNotificationUrl: MERCHANT_RETURN, paymentInformation: adyenCard(number), ...extra },
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Payer', accept: 'text/html', 'accept-language': 'en-AU,en;q=0.8' },
    );

  /** A charge waiting for its payer, its gateway URL opened: Adyen's pspReference, and where the browser was sent. */
  async function challenged(number: string, extra: Record<string, unknown> = {}) {
    const started = await pay(number, extra);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'PENDING', threeDsVerified: false });
    const psp = String(started.body.providerChargeId);
    const opened = await visit(String(started.body.threeDsRedirectUrl));
    return { chargeId: String(started.body.chargeId), psp, opened };
  }

  it('challenge passed (GET): the payer comes back with redirectResult, the gateway asks /payments/details, SUCCESS with Adyen’s 3-D Secure result', async () => {
    adyen.setNotificationUrl(undefined);
    const { chargeId, psp, opened } = await challenged('4212345678901237');
    expect(opened).toMatchObject({ status: 303, location: adyen.challenge(psp)!.url });
    // What the payment asked of Adyen: a redirect, the gateway's return URL, the browser as the request told it.
    const sent = adyen.requests.find(
      (r) => r.operation === '/payments' && (r.body as { reference?: string }).reference === `${chargeId}:1`,
    );
    expect(sent?.body).toMatchObject({
      channel: 'Web',
      origin: 'https://shop.example',
      returnUrl: expect.stringMatching(new RegExp(`^${bed.t.url}/3ds/[A-Za-z0-9_-]+/return$`)),
      browserInfo: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Payer', acceptHeader: 'text/html', language: 'en-AU' },
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } },
    });
    const merchant = await backAtMerchant(adyen.completeChallenge(psp, 'complete'));
    expect(Object.fromEntries(merchant.searchParams)).toEqual({ chargeId, status: 'SUCCESS' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'challenge', transStatus: 'Y' },
    });
  });

  it('challenge by a form Adyen wants POSTed: the gateway’s URL answers the form that posts itself', async () => {
    adyen.setNotificationUrl(undefined);
    const { chargeId, psp, opened } = await challenged('5454545454545454');
    const challenge = adyen.challenge(psp)!;
    expect(challenge.method).toBe('POST');
    expect(opened.status).toBe(200);
    expect(opened.body).toContain(`action="${challenge.url.replace(/&/g, '&amp;')}"`);
    for (const [name, value] of Object.entries(challenge.data ?? {})) expect(opened.body).toContain(`name="${name}" value="${value}"`);
    expect((await backAtMerchant(adyen.completeChallenge(psp, 'complete'))).searchParams.get('status')).toBe('SUCCESS');
    expect((await a.api.get(`/charge/${chargeId}`)).body.status).toBe('SUCCESS');
  });

  it.each([
    { name: 'a failed challenge', number: '4212345678901237', outcome: 'fail' as const, code: 18 },
    { name: 'a cancelled challenge', number: '371449635398431', outcome: 'cancel' as const, code: 18 },
    { name: 'an issuer decline after a passed challenge', number: '4000008400001629', outcome: 'complete' as const, code: 43 },
  ])('$name ends FAILED with code $code', async ({ number, outcome, code }) => {
    adyen.setNotificationUrl(undefined);
    const { chargeId, psp } = await challenged(number);
    expect((await backAtMerchant(adyen.completeChallenge(psp, outcome))).searchParams.get('status')).toBe('FAILED');
    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(charge.status).toBe('FAILED');
    expect(charge.failedAttempts).toEqual([expect.objectContaining({ errorCode: String(code) })]);
  });

  it('the AUTHORISATION notification before the return completes the charge; the return then changes nothing; Adyen holds one payment', async () => {
    adyen.setNotificationUrl(notificationUrl());
    const { chargeId, psp } = await challenged('4212345678901237');
    const returnUrl = adyen.completeChallenge(psp, 'complete');
    await expect.poll(async () => (await a.api.get(`/charge/${chargeId}`)).body.status, { timeout: 10_000 }).toBe('SUCCESS');
    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    const [first, second] = await Promise.all([backAtMerchant(returnUrl), backAtMerchant(returnUrl)]);
    expect([first.searchParams.get('status'), second.searchParams.get('status')]).toEqual(['SUCCESS', 'SUCCESS']);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toEqual(charge);
    expect(adyen.payments().filter((p) => p.reference.startsWith(`${chargeId}:`))).toEqual([
      expect.objectContaining({ pspReference: psp, resultCode: 'Authorised', captured: 2500 }),
    ]);
    adyen.setNotificationUrl(undefined);
  });

  it('a payer who never comes back: the timeout cancels the payment at Adyen and fails the charge (94)', async () => {
    adyen.setNotificationUrl(undefined);
    const { chargeId, psp } = await challenged('4212345678901237');
    await bed.advance(11_000);
    expect((await bed.t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).failureCode).toBe(94);
    expect(adyen.payment(psp)).toMatchObject({ cancelled: true, captured: 0 });
  });

  it('sends the browser the merchant describes (browserInfo, our extension) over the request’s headers, and threeDSRequest any as attemptAuthentication', async () => {
    adyen.setNotificationUrl(undefined);
    const browserInfo = {
      colorDepth: 30,
      screenHeight: 900,
      screenWidth: 1440,
      timeZoneOffset: -600,
      javaEnabled: false,
      language: 'fr-FR',
    };
    const paid = await pay('4111111111111111', { browserInfo, threeDSRequest: 'any' });
    expect(paid.body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true, threeDs: { flow: 'frictionless' } });
    const sent = adyen.requests.find(
      (r) => r.operation === '/payments' && (r.body as { reference?: string }).reference === `${paid.body.chargeId}:1`,
    );
    expect(sent?.body).toMatchObject({
      browserInfo: { ...browserInfo, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Payer', acceptHeader: 'text/html' },
      authenticationData: { attemptAuthentication: 'always' },
    });
    const badDepth = await pay('4111111111111111', { browserInfo: { ...browserInfo, colorDepth: 'deep' } });
    expect(badDepth.status).toBe(400);
    expect(JSON.stringify(badDepth.body)).toContain('browserInfo.colorDepth');
  });

  it('frictionless: SUCCESS at once and verified; an authentication run elsewhere goes to Adyen as mpiData', async () => {
    adyen.setNotificationUrl(undefined);
    expect((await pay('4000000000003055')).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'frictionless' },
    });
    const external = externalThreeDs();
    const passed = await pay('4212345678901237', {
      threeDSNotificationUrl: undefined,
      paymentInformation: { ...adyenCard('4212345678901237'), externalThreeDsData: external },
    });
    expect(passed.body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true });
    const sent = adyen.requests.find(
      (r) => r.operation === '/payments' && (r.body as { reference?: string }).reference === `${passed.body.chargeId}:1`,
    );
    expect(sent?.body).toMatchObject({ mpiData: { cavv: external.authenticationValue, eci: '05', dsTransID: external.dsTransID } });
  });
});
