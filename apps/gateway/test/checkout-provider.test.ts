import { startFakeCheckout, type FakeCheckout } from '@gateway/provider-fakes';
import { checkoutSignature } from '@gateway/providers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, visit, type TestAccount, type TestGateway } from './harness';

/**
 * A checkout (Checkout.com) provider over REST, against the fake Checkout.com: its parameters, its
 * webhooks settling the captures, voids and refunds it answered 202 (forged and repeated ones
 * changing nothing), or without a WebhookSecret the payment read instead; reversals done only once
 * Checkout.com shows them made; and 3-D Secure through its redirect. Charges, stored cards and the
 * crash tests run with the other real types (charge-real-providers, real-provider-crash…).
 */
const CREDENTIALS = {
  SecretKey: 'sk_sbox_fakegatewaycheckoutprovider1',
  ProcessingChannelId: 'pc_fakegatewaycheckoutprovider1',
  WebhookSecret: 'checkout-webhook-secret-provider-test',
};
const MERCHANT_RETURN = 'https://shop.example/checkout/3ds-done';
const card = (number = '4242424242424242') => ({
  cardNumber: number,
  expiryDate: '12/30',
  ccv: number === '4543474002249996' ? '956' : '100',
  cardholder: 'Test Payer',
});

let t: TestGateway;
let fake: FakeCheckout;
let a: TestAccount;
let providerId: string;
const db = () => t.gateway.database.prisma;
const notificationUrl = (id: string) => `${t.url}/provider/${id}/notification`;
/** The gateway's clock runs ahead by this much: background jobs come due without waiting. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  fake = await startFakeCheckout({ secretKey: CREDENTIALS.SecretKey, webhookSecret: CREDENTIALS.WebhookSecret });
  t = await startTestGateway({ providerEndpoints: { checkout: fake.url }, threeDsTimeoutSeconds: 10, clock });
  a = await createAccount(t, []);
  const created = await a.api.post('/provider', {
    type: 'checkout',
    name: 'Checkout.com',
    currency: 'EUR',
    authenticationParameters: CREDENTIALS,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  providerId = String(created.body.providerId);
  fake.setNotificationUrl(notificationUrl(providerId));
});
afterAll(async () => {
  // Every request the gateway sent met the schema written from Checkout.com's reference.
  expect(fake.violations).toEqual([]);
  await t?.close();
  await fake?.close();
});

async function charge(capture: boolean, amount = 10, account = a) {
  const { status, body } = await account.api.post('/charge/card', {
    amount,
    currency: 'EUR',
    providerId: account === a ? providerId : account.providerIds[0],
    capture,
    paymentInformation: card(),
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return String(body.chargeId);
}
/** A charge the provider did not make: its id, from the error. */
async function failedCharge(account: TestAccount, capture: boolean) {
  const { status, body } = await account.api.post('/charge/card', {
    amount: 10,
    currency: 'EUR',
    providerId: account.providerIds[0],
    capture,
    paymentInformation: card(),
  });
  expect(status, JSON.stringify(body)).toBe(400);
  const chargeId = String((body.details as Record<string, unknown>).chargeId);
  expect((await account.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'FAILED' });
  return chargeId;
}
/** What the fake holds of the charge's first attempt. */
const madeFor = (chargeId: string) => fake.payments().find((p) => p.reference === `${chargeId}:1`);
const modificationsOf = (chargeId: string) => db().providerModification.findMany({ where: { chargeId }, orderBy: { dateAdded: 'asc' } });

/** Waits until every modification of the charge is settled by its webhook. */
async function settled(chargeId: string) {
  const deadline = Date.now() + 15_000;
  while ((await modificationsOf(chargeId)).some((m) => m.status === 'PENDING')) {
    if (Date.now() > deadline) throw new Error('a modification is still pending');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return modificationsOf(chargeId);
}

async function post(id: string, body: string, signature: string | undefined) {
  const response = await fetch(notificationUrl(id), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'cko-signature': signature }) },
    body,
  });
  return { status: response.status, body: await response.text() };
}

describe('POST /provider with type checkout', () => {
  it.each([
    ['a live key in SANDBOX', { environment: 'SANDBOX', SecretKey: 'sk_fakegatewaycheckoutprovider1' }, 'SecretKey'],
    ['a sandbox key in PRODUCTION', { environment: 'PRODUCTION', SecretKey: CREDENTIALS.SecretKey }, 'SecretKey'],
    ['an older test key', { environment: 'SANDBOX', SecretKey: 'sk_test_3e1ad21b-ac23-4eb3-ad1f-375e9fb56481' }, 'SecretKey'],
    ['a malformed processing channel', { environment: 'SANDBOX', ProcessingChannelId: 'channel-1' }, 'ProcessingChannelId'],
  ])('refuses %s, naming the parameter and never its value', async (_, { environment, ...changes }, name) => {
    const refused = await a.api.post('/provider', {
      type: 'checkout',
      name: 'Refused',
      currency: 'EUR',
      environment,
      authenticationParameters: { ...CREDENTIALS, ...changes },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 90, details: { [`authenticationParameters.${name}`]: expect.any(String) } });
    expect(JSON.stringify(refused.body)).not.toContain('fakegatewaycheckout');
  });

  it('is listed by GET /info/provider_types with its parameters and operations', async () => {
    const { body } = await a.api.get<{ providerTypes: Array<Record<string, unknown>> }>('/info/provider_types');
    expect(body.providerTypes.find((p) => p.type === 'checkout')).toMatchObject({
      displayName: 'Checkout.com',
      parameters: [
        { name: 'SecretKey', requiredIn: ['SANDBOX', 'PRODUCTION'], secret: true },
        { name: 'ProcessingChannelId', requiredIn: ['SANDBOX', 'PRODUCTION'], secret: false },
        { name: 'WebhookSecret', requiredIn: [], secret: true },
      ],
      operations: expect.arrayContaining([
        'sale',
        'partialCapture',
        'partialRefund',
        'reverse',
        'recurring',
        'notifications',
        'threeDsRedirect',
      ]),
    });
  });
});

describe('a card saved with verify', () => {
  it('is checked by a zero-amount payment, which holds nothing and needs no void', async () => {
    const saved = await a.api.post('/payment_method/card', { providerId, paymentInformation: card(), verify: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const verifications = fake.payments().filter((p) => p.amount === 0 && p.status === 'Card Verified');
    expect(verifications.length).toBeGreaterThan(0);
    expect(fake.payments().filter((p) => p.amount === 0 && p.voided)).toEqual([]);
  });
});

describe('Checkout.com webhooks', () => {
  it('confirm a capture, a void and a refund answered 202, each by its action id', async () => {
    const captured = await charge(false);
    expect((await a.api.post(`/charge/${captured}/capture`, { amount: 6 })).body).toMatchObject({ status: 'SUCCESS', amount: 6 });
    const [pending] = await modificationsOf(captured);
    expect(pending).toMatchObject({ kind: 'capture', amount: 600n, providerReference: expect.stringMatching(/^act_/) });
    const refunded = await a.api.delete(`/refund/${captured}?amount=2`);
    expect(refunded.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 2 });
    expect((await settled(captured)).map((m) => [m.kind, m.status])).toEqual([
      ['capture', 'CONFIRMED'],
      ['refund', 'CONFIRMED'],
    ]);
    const voided = await charge(false);
    expect((await a.api.delete(`/charge/${voided}`)).body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    expect((await settled(voided)).map((m) => [m.kind, m.status])).toEqual([['void', 'CONFIRMED']]);
    expect(fake.deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it('revert a refund Checkout.com declines: the charge is back as it was', async () => {
    const chargeId = await charge(true);
    await settled(chargeId);
    fake.failNextAction('refund');
    const refund = await a.api.delete(`/refund/${chargeId}`);
    expect(refund.body, JSON.stringify(refund.body)).toMatchObject({ status: 'REFUND' });
    expect(await settled(chargeId)).toEqual([
      expect.objectContaining({ kind: 'capture', status: 'CONFIRMED' }),
      expect.objectContaining({ kind: 'refund', status: 'FAILED', gatewayCode: 'payment_refund_declined' }),
    ]);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });
  });

  it('refuse a forged or tampered one, and take a repeated one once', async () => {
    const chargeId = await charge(false);
    fake.setNotificationUrl(undefined);
    try {
      await a.api.post(`/charge/${chargeId}/capture`, {});
    } finally {
      fake.setNotificationUrl(notificationUrl(providerId));
    }
    const [pending] = await modificationsOf(chargeId);
    const row = await db().charge.findUniqueOrThrow({ where: { id: chargeId } });
    const event = JSON.stringify({
      id: 'evt_repeatedcheckoutevent00000001',
      type: 'payment_capture_declined',
      data: { id: row.providerChargeId, action_id: pending!.providerReference, amount: 1000, currency: 'EUR' },
    });
    const forged = await post(providerId, event, checkoutSignature(event, 'another-webhook-secret-0001'));
    const tampered = await post(providerId, event.replace('1000', '1'), checkoutSignature(event, CREDENTIALS.WebhookSecret));
    const unsigned = await post(providerId, event, undefined);
    for (const answer of [forged, tampered, unsigned]) {
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 40 });
    }
    expect((await modificationsOf(chargeId))[0]).toMatchObject({ status: 'PENDING' });

    const signature = checkoutSignature(event, CREDENTIALS.WebhookSecret);
    expect(await post(providerId, event, signature)).toEqual({ status: 200, body: '{}' });
    expect((await modificationsOf(chargeId))[0]).toMatchObject({ status: 'FAILED' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'AUTHORISE' });
    // Delivered again: the same answer, nothing more.
    expect(await post(providerId, event, signature)).toEqual({ status: 200, body: '{}' });
    expect(await db().providerNotification.count({ where: { providerId, notificationId: 'evt_repeatedcheckoutevent00000001' } })).toBe(1);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'AUTHORISE' });
  });
});

/** The reversal job of a charge's first attempt, once it has run again after the clock moved past its next try. */
async function reversalRunAgain(chargeId: string) {
  const job = () => db().job.findUniqueOrThrow({ where: { dedupeKey: `reverse:${chargeId}:1` } });
  const before = (await job()).attempts;
  offsetMs += 15 * 60_000;
  await expect
    .poll(
      async () => {
        await t.gateway.worker.runDue();
        const now = await job();
        return now.attempts > before && now.status !== 'RUNNING';
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return job();
}

describe('a payment whose answer Checkout.com never sent', () => {
  let quick: TestAccount;
  beforeAll(async () => {
    // A short wait for answers: a lost one is found out quickly.
    quick = await createAccount(t, [
      { type: 'checkout', name: 'Checkout.com (quick)', currency: 'EUR', credentials: CREDENTIALS, timeoutMs: 1_000 },
    ]);
  });
  afterEach(() => {
    fake.setSearchLag(0);
    fake.holdActions(false);
  });

  it('is reversed by the background job once Checkout.com lists it and shows it voided: an empty search or an accepted reversal is not the end', async () => {
    // Checkout.com made the payment, the answer was lost, and its search does not list the payment yet.
    fake.setSearchLag(60 * 60_000);
    fake.injectFault({ kind: 'hang', processed: true }, { method: 'POST', route: '/payments' });
    const chargeId = await failedCharge(quick, false);
    expect(madeFor(chargeId)).toMatchObject({ status: 'Authorized' });
    // Nothing found right after the timeout: asked again later, not taken as nothing to reverse.
    expect(await reversalRunAgain(chargeId)).toMatchObject({ status: 'PENDING', lastError: 'reversal not confirmed yet' });
    expect(madeFor(chargeId)).toMatchObject({ status: 'Authorized' });

    // Listed now; Checkout.com accepts the reversal (202) but has not made the void yet: still not done.
    fake.setSearchLag(0);
    fake.holdActions(true);
    expect(await reversalRunAgain(chargeId)).toMatchObject({ status: 'PENDING' });
    expect(madeFor(chargeId)).toMatchObject({ status: 'Authorized' });

    // Made: the next run reads the payment voided and is done.
    fake.holdActions(false);
    expect(await reversalRunAgain(chargeId)).toMatchObject({ status: 'SUCCEEDED' });
    expect(madeFor(chargeId)).toMatchObject({ status: 'Voided' });
    expect(fake.requests.filter((r) => r.path === `/payments/${madeFor(chargeId)!.id}/reversals`)).toHaveLength(1);
  });

  it('a sale whose capture Checkout.com refuses for good fails, its authorisation given back even when the first release fails', async () => {
    fake.injectFault(
      { kind: 'error', status: 403, errorCodes: ['action_not_allowed'] },
      { method: 'POST', route: '/payments/{id}/captures' },
    );
    fake.injectFault({ kind: 'error', status: 500 }, { method: 'POST', route: '/payments/{id}/reversals' });
    const chargeId = await failedCharge(quick, true);
    // The connector's release failed: an unknown outcome, which the gateway reversed at once.
    expect(madeFor(chargeId)).toMatchObject({ status: 'Voided', captured: 0 });
    const reversals = fake.requests.filter((r) => r.path === `/payments/${madeFor(chargeId)!.id}/reversals`);
    expect(reversals.map((r) => r.status)).toEqual([500, 202]);
  });
});

describe('a checkout provider without a WebhookSecret', () => {
  let b: TestAccount;
  beforeAll(async () => {
    const { WebhookSecret: _none, ...credentials } = CREDENTIALS;
    b = await createAccount(t, [{ type: 'checkout', name: 'Checkout.com (no webhooks)', currency: 'EUR', credentials }]);
  });
  afterEach(() => fake.holdActions(false));

  it('confirms a sale, a refund and a void by reading the payment: nothing is left pending a webhook that cannot come', async () => {
    const sale = await charge(true, 10, b);
    expect((await b.api.get(`/charge/${sale}`)).body).toMatchObject({ status: 'SUCCESS' });
    expect((await b.api.delete(`/refund/${sale}?amount=4`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 4 });
    const voided = await charge(false, 10, b);
    expect((await b.api.delete(`/charge/${voided}`)).body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    expect([...(await modificationsOf(sale)), ...(await modificationsOf(voided))]).toEqual([]);
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/payments/${madeFor(sale)!.id}/actions`)).toBe(true);
    expect(madeFor(sale)).toMatchObject({ captured: 1000, refunded: 400 });
  });

  it('answers a capture Checkout.com accepted but has not made as unconfirmed; its confirming job finds it made', async () => {
    const chargeId = await charge(false, 10, b);
    fake.holdActions(true);
    const unconfirmed = await b.api.post(`/charge/${chargeId}/capture`, {});
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body).toMatchObject({ isRetryable: false, gatewayCode: 'ACTION_UNCONFIRMED' });
    expect(await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({
      status: 'AUTHORISE',
      pendingOperation: 'capture',
    });
    fake.holdActions(false);
    offsetMs += 3 * 60_000;
    await expect
      .poll(
        async () => {
          await t.gateway.worker.runDue();
          return (await b.api.get(`/charge/${chargeId}`)).body.status;
        },
        { timeout: 10_000 },
      )
      .toBe('SUCCESS');
    expect(madeFor(chargeId)).toMatchObject({ captured: 1000 });
    expect(await modificationsOf(chargeId)).toEqual([]);
  });
});

describe('3-D Secure at Checkout.com', () => {
  async function challenged(extra: Record<string, unknown> = {}) {
    const started = await a.api.post('/charge/card', {
      amount: 25,
      currency: 'EUR',
      providerId,
      threeDSNotificationUrl: MERCHANT_RETURN,
      paymentInformation: card('4543474002249996'),
      ...extra,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'PENDING', threeDsVerified: false, threeDsRedirectUrl: expect.stringContaining(t.url) });
    const paymentId = String(started.body.providerChargeId);
    const opened = await visit(String(started.body.threeDsRedirectUrl));
    expect(opened).toMatchObject({ status: 303, location: expect.stringContaining(`${fake.url}/fake/3ds/sid_`) });
    return { chargeId: String(started.body.chargeId), paymentId };
  }

  async function backAtMerchant(returnUrl: string) {
    const back = await visit(returnUrl);
    expect(back.status).toBe(303);
    return new URL(back.location!);
  }

  it('sends 3ds.enabled with the gateway’s return URL; passed, the gateway asks Checkout.com and the sale is captured', async () => {
    const { chargeId, paymentId } = await challenged();
    const back = fake.completeChallenge(paymentId, 'pass');
    expect(back).toMatch(new RegExp(`^${t.url}/3ds/[A-Za-z0-9_-]+/return\\?cko-session-id=sid_`));
    const merchant = await backAtMerchant(back);
    expect(Object.fromEntries(merchant.searchParams)).toEqual({ chargeId, status: 'SUCCESS' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDs: { flow: 'challenge', transStatus: 'Y', liabilityShift: true },
    });
    expect(fake.payment(paymentId)).toMatchObject({ captured: 2500 });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/payments/${paymentId}`)).toBe(true);
  });

  it('failed, the charge ends FAILED with the 3-D Secure failure code (18)', async () => {
    const { chargeId, paymentId } = await challenged({ capture: false });
    expect((await backAtMerchant(fake.completeChallenge(paymentId, 'fail'))).searchParams.get('status')).toBe('FAILED');
    const failed = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(failed).toMatchObject({ status: 'FAILED' });
    expect(failed.failedAttempts).toEqual([expect.objectContaining({ errorCode: '18' })]);
  });

  it('a return before the payer finished changes nothing: the gateway asks Checkout.com, which still waits', async () => {
    const { chargeId, paymentId } = await challenged();
    const early = `${fake.payment(paymentId)!.successUrl!}?cko-session-id=sid_forged`;
    await visit(early);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'PENDING', threeDsVerified: false });
    expect(fake.payment(paymentId)).toMatchObject({ status: 'Pending', captured: 0 });
    expect((await backAtMerchant(fake.completeChallenge(paymentId, 'pass'))).searchParams.get('status')).toBe('SUCCESS');
  });
});
