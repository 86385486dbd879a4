import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticateAtSimulatedIssuer, card, externalThreeDs, visit, type TestAccount } from './harness';
import { webhookTestbed } from './webhook-receiver';

/**
 * 3-D Secure on the simulated acquirer, through the API and the browser's URLs, followed as a
 * browser would (redirect after redirect, the issuer page's buttons pressed by posting its form):
 * docs/three-d-secure.md and the 3-D Secure cards of docs/test-cards.md.
 */
const bed = webhookTestbed({ threeDsTimeoutSeconds: 10 });

const CARDS = {
  challenge: '4000000000003220',
  challengeFails: '4000000000003063',
  frictionless: '4000000000003055',
  challengeThenDecline: '4000008400001629',
  unavailable: '4000000000003097',
};

const MERCHANT_RETURN = 'https://shop.example/checkout/3ds-done?order=1001';

/** An account subscribed to its charges' events at `path`, its simulated acquirers given time (the embedded database can be slow). */
async function account(path: string, types: string[]) {
  const subscribed = await bed.subscribedAccount(path, types);
  await bed.t.gateway.database.prisma.provider.updateMany({ where: { accountId: subscribed.a.accountId }, data: { timeoutMs: 10_000 } });
  return subscribed;
}

async function pay(a: TestAccount, number: string, extra: Record<string, unknown> = {}) {
  return a.api.post('/charge/card', {
    amount: 12.5,
    currency: 'AUD',
    providerId: a.providerIds[0],
    reference: `3ds-${number.slice(-4)}`,
    threeDSNotificationUrl: MERCHANT_RETURN,
    paymentInformation: card(number),
    ...extra,
  });
}

/** The statuses the webhooks at `path` of the receiver told of a charge, in order. */
const statusesSent = (path: string, chargeId: string) =>
  bed.receiver
    .at(path)
    .filter((r) => r.data.chargeId === chargeId)
    .map((r) => r.data.status);

describe('3-D Secure on the simulated acquirer', () => {
  it('challenge passed: PENDING with the gateway’s redirect URL, the issuer page, then SUCCESS and the merchant’s URL, webhooks at both changes', async () => {
    const { a } = await account('/3ds', ['Transaction']);
    const started = await pay(a, CARDS.challenge);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // Nothing is authorised while the payer authenticates.
    expect(started.body).toMatchObject({ status: 'PENDING', threeDsVerified: false, threeDs: null, authorisationAmount: null });
    const redirectUrl = String(started.body.threeDsRedirectUrl);
    expect(redirectUrl.startsWith(`${bed.t.url}/3ds/`)).toBe(true);
    const chargeId = String(started.body.chargeId);

    const { issuerPage, returnUrl, landed: merchant } = await authenticateAtSimulatedIssuer(redirectUrl, 'complete');
    expect(issuerPage).toContain('Complete authentication');
    expect(issuerPage).toContain('Fail authentication');
    expect(issuerPage).toContain('Cancel');
    expect(issuerPage).toContain('A$12.50');
    expect(issuerPage).toContain(`•••• ${CARDS.challenge.slice(-4)}`);
    expect(issuerPage).not.toContain(CARDS.challenge);
    expect(`${merchant.origin}${merchant.pathname}`).toBe('https://shop.example/checkout/3ds-done');
    expect(Object.fromEntries(merchant.searchParams)).toEqual({ order: '1001', chargeId, status: 'SUCCESS' });

    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(charge).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDsRedirectUrl: null,
      threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true },
    });
    // The return visited again (reload, back button) changes nothing and sends the browser on again.
    const again = await visit(returnUrl);
    expect(new URL(again.location!).searchParams.get('status')).toBe('SUCCESS');
    expect((await a.api.get(`/charge/${chargeId}`)).body).toEqual(charge);
    // The redirect URL now says it is over.
    const over = await visit(redirectUrl);
    expect(over.status).toBe(200);
    expect(over.body).toContain('SUCCESS');
    expect(over.body).toContain(`href="${again.location!.replace(/&/g, '&amp;')}"`);

    await bed.drain();
    expect(statusesSent('/3ds', chargeId)).toEqual(['PENDING', 'SUCCESS']);
  });

  it('authorises only, when capture is false: AUTHORISE after the challenge, captured later', async () => {
    const { a } = await account('/3ds-auth', ['Transaction']);
    const started = await pay(a, CARDS.challenge, { capture: false });
    const { landed: merchant } = await authenticateAtSimulatedIssuer(String(started.body.threeDsRedirectUrl), 'complete');
    expect(merchant.searchParams.get('status')).toBe('AUTHORISE');
    const captured = await a.api.post(`/charge/${started.body.chargeId}/capture`, {});
    expect(captured.body).toMatchObject({ status: 'SUCCESS', amount: 12.5, threeDsVerified: true });
  });

  it.each([
    { name: 'a challenge that still fails authentication', number: CARDS.challengeFails, button: 'complete' as const, code: 18 },
    { name: 'a failed challenge', number: CARDS.challenge, button: 'fail' as const, code: 18 },
    { name: 'a cancelled challenge', number: CARDS.challenge, button: 'cancel' as const, code: 18 },
    { name: 'an issuer decline after a passed challenge', number: CARDS.challengeThenDecline, button: 'complete' as const, code: 43 },
  ])('$name ends FAILED with code $code, and failedAttempts says why', async ({ name, number, button, code }) => {
    const { a } = await account(`/3ds-fail-${name.length}-${button}`, ['Transaction']);
    const started = await pay(a, number);
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ status: 'PENDING' });
    const { landed: merchant } = await authenticateAtSimulatedIssuer(String(started.body.threeDsRedirectUrl), button);
    expect(merchant.searchParams.get('status')).toBe('FAILED');
    const charge = (await a.api.get(`/charge/${started.body.chargeId}`)).body;
    expect(charge).toMatchObject({ status: 'FAILED', threeDsVerified: code === 43 });
    expect(charge.failedAttempts).toEqual([expect.objectContaining({ errorCode: String(code), gatewayCode: code === 43 ? '05' : '1A' })]);
  });

  it('frictionless: SUCCESS at once, verified only when the merchant opted in', async () => {
    const { a } = await account('/3ds-frictionless', ['Transaction']);
    const optedIn = await pay(a, CARDS.frictionless);
    expect(optedIn).toMatchObject({
      status: 201,
      body: { status: 'SUCCESS', threeDsVerified: true, threeDsRedirectUrl: null, threeDs: { flow: 'frictionless', transStatus: 'Y' } },
    });
    const without = await pay(a, CARDS.frictionless, { threeDSNotificationUrl: undefined });
    expect(without).toMatchObject({ status: 201, body: { status: 'SUCCESS', threeDsVerified: false, threeDs: null } });
  });

  it('refuses with code 18 a card that needs authentication when the merchant did not ask for it, saying how', async () => {
    const { a } = await account('/3ds-none', ['Transaction']);
    const method = await a.api.post('/payment_method/card', { providerId: a.providerIds[0], paymentInformation: card(CARDS.challenge) });
    const recurring = () =>
      a.api.post('/charge/payment_method', {
        paymentMethodId: method.body.paymentMethodId,
        amount: 3,
        recurring: true,
        threeDSNotificationUrl: MERCHANT_RETURN,
      });
    for (const refused of [
      await pay(a, CARDS.challenge, { threeDSNotificationUrl: undefined }),
      await pay(a, CARDS.challenge, { initiator: 'MERCHANT' }),
      await recurring(),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 18 });
      expect(String(refused.body.message)).toContain('threeDSNotificationUrl');
    }
    // Authentication unavailable at the issuer: refused even after the opt-in.
    const unavailable = await pay(a, CARDS.unavailable);
    expect(unavailable).toMatchObject({ status: 400, body: { code: 18, gatewayCode: '1A' } });
  });

  it('gives up after GATEWAY_THREEDS_TIMEOUT_SECONDS: the payment is cancelled at the acquirer and the charge FAILED with code 94, once', async () => {
    const { a } = await account('/3ds-timeout', ['Transaction']);
    const started = await pay(a, CARDS.challenge);
    const chargeId = String(started.body.chargeId);
    await bed.advance(5_000);
    expect((await a.api.get(`/charge/${chargeId}`)).body.status).toBe('PENDING');
    await bed.advance(10_000);
    const charge = (await a.api.get(`/charge/${chargeId}`)).body;
    expect(charge).toMatchObject({ status: 'FAILED' });
    const row = await bed.t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } });
    expect(row.failureCode).toBe(94);
    expect(charge.failedAttempts).toMatchObject([{ errorCode: '94', gatewayCode: 'TIMEOUT', isRetryable: false }]);
    // The payer comes back too late: the acquirer's payment was cancelled, the challenge cannot revive it.
    const over = await visit(String(started.body.threeDsRedirectUrl));
    expect(over).toMatchObject({ status: 200, location: null });
    expect(over.body).toContain('FAILED');
    const ledger = await fetch(`${bed.t.gateway.simulatorUrl}/v1/authorisations?idempotencyKey=${chargeId}:1`);
    expect(((await ledger.json()) as { authorisations: Array<{ status: string }> }).authorisations.map((x) => x.status)).toEqual([
      'reversed',
    ]);
    await bed.advance(60_000);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toEqual(charge);
    // Once: a webhook when it started waiting, one when it failed.
    await bed.drain();
    expect(statusesSent('/3ds-timeout', chargeId)).toEqual(['PENDING', 'FAILED']);
  });

  it('keeps at the timeout a payment the payer finished but never came back from: the acquirer is asked first', async () => {
    const { a } = await account('/3ds-late', ['Transaction']);
    const started = await pay(a, CARDS.challenge);
    const toIssuer = await visit(String(started.body.threeDsRedirectUrl));
    // The payer passes the challenge, and closes the tab before the issuer sends them back.
    expect((await visit(toIssuer.location!, { action: 'complete' })).status).toBe(303);
    expect((await a.api.get(`/charge/${started.body.chargeId}`)).body.status).toBe('PENDING');
    await bed.advance(15_000);
    const charge = (await a.api.get(`/charge/${started.body.chargeId}`)).body;
    expect(charge).toMatchObject({ status: 'SUCCESS', threeDsVerified: true, failedAttempts: [] });
    const ledger = await fetch(`${bed.t.gateway.simulatorUrl}/v1/authorisations?idempotencyKey=${started.body.chargeId}:1`);
    expect(((await ledger.json()) as { authorisations: Array<{ status: string }> }).authorisations.map((x) => x.status)).toEqual([
      'captured',
    ]);
  });

  it('answers a repeated Idempotency-Key with the PENDING charge, and a saved card, a token and a customer can need authentication too', async () => {
    const { a } = await account('/3ds-stored', ['Transaction']);
    const key = randomUUID();
    const body = {
      amount: 5,
      currency: 'AUD',
      providerId: a.providerIds[0],
      threeDSNotificationUrl: MERCHANT_RETURN,
      paymentInformation: card(CARDS.challenge),
    };
    const first = await a.api.post('/charge/card', body, { 'Idempotency-Key': key });
    expect(await a.api.post('/charge/card', body, { 'Idempotency-Key': key })).toEqual(first);

    const method = await a.api.post('/payment_method/card', { providerId: a.providerIds[0], paymentInformation: card(CARDS.challenge) });
    const saved = await a.api.post('/charge/payment_method', {
      paymentMethodId: method.body.paymentMethodId,
      amount: 7,
      threeDSNotificationUrl: MERCHANT_RETURN,
    });
    expect(saved.body).toMatchObject({ status: 'PENDING' });
    expect((await authenticateAtSimulatedIssuer(String(saved.body.threeDsRedirectUrl), 'complete')).landed.searchParams.get('status')).toBe(
      'SUCCESS',
    );

    const customer = await a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(CARDS.challenge) });
    const byCustomer = await a.api.post('/charge/customer', {
      customerId: customer.body.customerId,
      amount: 8,
      threeDSNotificationUrl: MERCHANT_RETURN,
    });
    expect(byCustomer.body).toMatchObject({ status: 'PENDING' });

    const token = await fetch(`${bed.t.url}/token/card`, {
      method: 'POST',
      headers: { 'x-publickey': a.publicKey, 'content-type': 'application/json' },
      body: JSON.stringify({ paymentInformation: card(CARDS.challenge) }),
    }).then((r) => r.json() as Promise<{ tokenId: string }>);
    const byToken = await a.api.post('/charge/token', { token: token.tokenId, amount: 9, threeDSNotificationUrl: MERCHANT_RETURN });
    expect(byToken.body).toMatchObject({ status: 'PENDING' });
    expect((await authenticateAtSimulatedIssuer(String(byToken.body.threeDsRedirectUrl), 'fail')).landed.searchParams.get('status')).toBe(
      'FAILED',
    );
  });

  it('checks what it is given: the notification URL, a merchant-run authentication, and threeDSServerTransID (not supported: 59)', async () => {
    const { a } = await account('/3ds-input', ['Transaction']);
    for (const url of ['ftp://shop.example/x', '/relative', `https://shop.example/${'x'.repeat(2048)}`, 'javascript:alert(1)']) {
      const refused = await pay(a, CARDS.challenge, { threeDSNotificationUrl: url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.details).toHaveProperty('threeDSNotificationUrl');
    }
    const transId = await pay(a, CARDS.challenge, { paymentInformation: card(CARDS.challenge, { threeDSServerTransID: randomUUID() }) });
    expect(transId).toMatchObject({ status: 400, body: { code: 59 } });

    const external = externalThreeDs();
    const badEci = await pay(a, CARDS.challenge, {
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: { ...external, eci: 'x' } }),
    });
    expect(badEci.status).toBe(400);
    expect(Object.keys(badEci.body.details as object)).toEqual(['paymentInformation.externalThreeDsData.eci']);
    const passed = await pay(a, CARDS.challenge, {
      threeDSNotificationUrl: undefined,
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: external }),
    });
    expect(passed.body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true, threeDs: { transStatus: 'Y', eci: '05' } });
    const attempted = await pay(a, CARDS.challenge, {
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: { ...external, transStatus: 'A', eci: '06' } }),
    });
    expect(attempted.body).toMatchObject({ status: 'SUCCESS', threeDsVerified: false, threeDs: { transStatus: 'A' } });
    // Without transStatus, the ECI says what the authentication came to.
    const byEci = await pay(a, CARDS.challenge, {
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: { ...external, transStatus: undefined } }),
    });
    expect(byEci.body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true, threeDs: { transStatus: 'Y', eci: '05' } });
    // …only in the outcome: an ECI of no authentication, no transStatus given, is not a failed one the issuer refuses.
    for (const [eci, transStatus] of [
      ['06', 'A'],
      ['07', 'N'],
    ]) {
      const unsaid = await pay(a, CARDS.challenge, {
        paymentInformation: card(CARDS.challenge, { externalThreeDsData: { ...external, eci, transStatus: undefined } }),
      });
      expect(unsaid.body, eci).toMatchObject({ status: 'SUCCESS', threeDsVerified: false, threeDs: { transStatus, eci } });
    }
    // Only a charge carries a merchant-run authentication: a payment method kept for later is refused it.
    const kept = await a.api.post('/payment_method/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: external }),
    });
    expect(kept.status).toBe(400);
    expect(Object.keys(kept.body.details as object)).toEqual(['paymentInformation.externalThreeDsData']);
    const notAuthenticated = await pay(a, CARDS.challenge, {
      paymentInformation: card(CARDS.challenge, { externalThreeDsData: { ...external, transStatus: 'N' } }),
    });
    expect(notAuthenticated).toMatchObject({ status: 400, body: { code: 18 } });
  });

  it('answers 404 for an unknown authentication, and never runs a charge from a forged return', async () => {
    const { a } = await account('/3ds-forged', ['Transaction']);
    expect((await visit(`${bed.t.url}/3ds/${'x'.repeat(32)}`)).status).toBe(404);
    expect((await visit(`${bed.t.url}/3ds/${'x'.repeat(32)}/return`)).status).toBe(404);
    const started = await pay(a, CARDS.challenge);
    const redirectUrl = String(started.body.threeDsRedirectUrl);
    // A return before the payer authenticated (someone guessing the flow) leaves it PENDING.
    const early = await visit(`${redirectUrl}/return?status=SUCCESS`);
    expect(new URL(early.location!).searchParams.get('status')).toBe('PENDING');
    expect((await a.api.get(`/charge/${started.body.chargeId}`)).body.status).toBe('PENDING');
  });
});
