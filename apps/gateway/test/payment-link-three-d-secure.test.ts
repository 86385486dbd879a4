import { randomUUID } from 'node:crypto';
import { startFakeAdyen, type FakeAdyen } from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../src/gateway';
import { authenticateAtSimulatedIssuer, card, client, createAccount, visit, VISA_AU, type TestAccount } from './harness';
import { webhookTestbed } from './webhook-receiver';

/**
 * 3-D Secure on a payment link's hosted page, over HTTP as the page and the payer's browser do it:
 * the pay call answers PENDING with where to send the browser, the issuer page's buttons are
 * pressed by posting its form, the browser comes back to the hosted page with the charge's id, and
 * the page reads the payment with GET /payment_link/{id}/payment/{chargeId}. The link counts a
 * payment once, and gives its slot back when the authentication fails or times out.
 */
const DASHBOARD = 'https://pay.example.test';
const ADYEN = {
  ApiKey: 'AQEfake-api-key-for-hosted-page-test',
  MerchantAccount: 'GatewayHostedPageECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

const options: Partial<GatewayOptions> = { threeDsTimeoutSeconds: 10, dashboardUrl: DASHBOARD };
let adyen: FakeAdyen;
beforeAll(async () => {
  adyen = await startFakeAdyen({ apiKey: ADYEN.ApiKey, merchantAccount: ADYEN.MerchantAccount, hmacKey: ADYEN.HmacKey });
  // Read by the testbed's own beforeAll, which runs after this one.
  options.providerEndpoints = { adyen: new URL(adyen.url).origin };
});
const bed = webhookTestbed(options);
afterAll(async () => {
  expect(adyen.violations).toEqual([]);
  await adyen?.close();
});

const CARDS = { challenge: '4000000000003220', frictionless: '4000000000003055', unavailable: '4000000000003097' };

type Link = Record<string, unknown> & { paymentLinkId: string };
type Payment = Record<string, unknown> & { chargeId: string; status: string; threeDsRedirectUrl: string | null };

/** An account whose simulated acquirers are given time (the embedded database can be slow). */
async function account(): Promise<TestAccount> {
  const a = await createAccount(bed.t);
  await bed.t.gateway.database.prisma.provider.updateMany({ where: { accountId: a.accountId }, data: { timeoutMs: 10_000 } });
  return a;
}

async function createLink(a: TestAccount, fields: Record<string, unknown> = {}): Promise<Link> {
  const { status, body } = await a.api.post<Link>('/payment_link', {
    title: 'Workshop seat',
    amount: 12,
    currency: 'AUD',
    confirmationMessage: 'See you there',
    ...fields,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The hosted page's first step, in the payer's browser: the card tokenised with the public key. */
async function tokenise(a: TestAccount, cardNumber: string): Promise<string> {
  const token = await client(bed.t.url).post<{ tokenId: string }>(
    '/token/card',
    { paymentInformation: card(cardNumber) },
    {
      'x-publickey': a.publicKey,
    },
  );
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return token.body.tokenId;
}

/** The second: the link paid with the token (an Idempotency-Key per attempt). */
const payWith = (a: TestAccount, link: Link, token: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  client(bed.t.url).post<Payment>(
    `/payment_link/${link.paymentLinkId}/pay`,
    { token, ...extra },
    { 'x-publickey': a.publicKey, ...headers },
  );

const pay = async (a: TestAccount, link: Link, cardNumber: string) => payWith(a, link, await tokenise(a, cardNumber));

/** What the hosted page reads when the payer comes back: the payment as it is now. */
const paymentOf = (a: Pick<TestAccount, 'publicKey'>, link: Link, chargeId: string) =>
  client(bed.t.url).get<Payment>(`/payment_link/${link.paymentLinkId}/payment/${chargeId}`, { 'x-publickey': a.publicKey });

const countOf = async (a: TestAccount, link: Link) => (await a.api.get<Link>(`/payment_link/${link.paymentLinkId}`)).body.countPayments;

describe('3-D Secure on the hosted payment page', () => {
  it('a challenge: PENDING with the gateway’s redirect URL, back on the hosted page with the charge’s id, paid and counted once', async () => {
    const a = await account();
    const link = await createLink(a, { limitPayments: 1, redirectUrl: 'https://shop.example/thanks' });
    const token = await tokenise(a, CARDS.challenge);
    const started = await payWith(a, link, token, { 'idempotency-key': 'attempt-1' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { chargeId, threeDsRedirectUrl } = started.body;
    expect(started.body).toEqual({
      chargeId: expect.any(String),
      status: 'PENDING',
      amount: 12,
      currency: 'AUD',
      confirmationMessage: 'See you there',
      redirectUrl: 'https://shop.example/thanks',
      threeDsRedirectUrl: expect.stringMatching(new RegExp(`^${bed.t.url}/3ds/[A-Za-z0-9_-]+$`)),
      failureReason: null,
      dateAdded: expect.any(String),
      reference: null,
      cardNumber: '400000******3220',
      cardType: 'VISA',
    });
    // The slot is taken while the payer authenticates: nobody else can take the last one.
    expect(await countOf(a, link)).toBe(1);
    expect(await pay(a, link, VISA_AU)).toMatchObject({ status: 400, body: { code: 46 } });
    expect((await paymentOf(a, link, chargeId)).body).toEqual(started.body);
    // The same attempt sent again (its answer lost) is answered as the first: no second charge.
    expect(await payWith(a, link, token, { 'idempotency-key': 'attempt-1' })).toEqual(started);

    const back = (await authenticateAtSimulatedIssuer(threeDsRedirectUrl!, 'complete')).landed;
    expect(`${back.origin}${back.pathname}`).toBe(`${DASHBOARD}/pay/${link.paymentLinkId}`);
    expect(Object.fromEntries(back.searchParams)).toEqual({ chargeId, status: 'SUCCESS' });

    const paid = await paymentOf(a, link, chargeId);
    expect(paid).toMatchObject({
      status: 200,
      body: { ...started.body, status: 'SUCCESS', threeDsRedirectUrl: null, failureReason: null },
    });
    expect(await countOf(a, link)).toBe(1);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', threeDsVerified: true });
    // The return visited again (a reload) changes nothing.
    expect((await visit(`${threeDsRedirectUrl}/return`)).location).toBe(back.toString());
    expect(await paymentOf(a, link, chargeId)).toEqual(paid);
    expect(await countOf(a, link)).toBe(1);
  });

  it.each(['fail', 'cancel'] as const)(
    'a challenge the payer’s %s ends FAILED, says why, and gives the slot back for another card',
    async (button) => {
      const a = await account();
      const link = await createLink(a, { limitPayments: 1 });
      const started = await pay(a, link, CARDS.challenge);
      expect(started.body).toMatchObject({ status: 'PENDING' });
      expect(await countOf(a, link)).toBe(1);

      const back = (await authenticateAtSimulatedIssuer(started.body.threeDsRedirectUrl!, button)).landed;
      expect(back.searchParams.get('status')).toBe('FAILED');
      const failed = await paymentOf(a, link, started.body.chargeId);
      expect(failed).toMatchObject({
        status: 200,
        body: {
          status: 'FAILED',
          threeDsRedirectUrl: null,
          failureReason: 'Your bank did not confirm the payment: the authentication failed or was cancelled.',
        },
      });
      expect(await countOf(a, link)).toBe(0);
      expect(await pay(a, link, VISA_AU)).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
      expect(await countOf(a, link)).toBe(1);
    },
  );

  it('an authentication the payer abandons fails when the gateway gives up, and gives the slot back', async () => {
    const a = await account();
    const link = await createLink(a, { limitPayments: 1 });
    const started = await pay(a, link, CARDS.challenge);
    expect(started.body).toMatchObject({ status: 'PENDING' });
    await bed.advance(15_000);
    expect((await paymentOf(a, link, started.body.chargeId)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'The confirmation with your bank was not completed in time.',
    });
    expect(await countOf(a, link)).toBe(0);
  });

  it('a frictionless authentication pays at once; an unavailable one is a decline that gives the slot back', async () => {
    const a = await account();
    const link = await createLink(a, { limitPayments: 1 });
    const unavailable = await pay(a, link, CARDS.unavailable);
    // The public key's caller learns that it was declined, not why (card testing).
    expect(unavailable).toMatchObject({ status: 400, body: { message: 'The card was declined' } });
    const declinedId = String((unavailable.body.details as Record<string, string>).chargeId);
    expect((await paymentOf(a, link, declinedId)).body).toMatchObject({ status: 'FAILED', failureReason: 'The card was declined.' });
    expect(await countOf(a, link)).toBe(0);

    const paid = await pay(a, link, CARDS.frictionless);
    expect(paid).toMatchObject({ status: 200, body: { status: 'SUCCESS', threeDsRedirectUrl: null } });
    expect((await a.api.get(`/charge/${paid.body.chargeId}`)).body).toMatchObject({ threeDsVerified: true });
    expect(await countOf(a, link)).toBe(1);
  });

  it('sends the payer’s browser (its headers and what the page read) and the hosted page’s origin to the provider (Adyen), and comes back to the page', async () => {
    const a = await createAccount(bed.t, []);
    const created = await a.api.post('/provider', { type: 'adyen', name: 'Adyen', currency: 'EUR', authenticationParameters: ADYEN });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const link = await createLink(a, { currency: 'EUR', amount: 25 });
    const token = await client(bed.t.url).post<{ tokenId: string }>(
      '/token/card',
      { paymentInformation: { cardNumber: '4212345678901237', expiryDate: '03/30', ccv: '737', cardholder: 'Test Payer' } },
      { 'x-publickey': a.publicKey },
    );
    // What the page reads of the payer's screen and clock, with the request's headers.
    const browserInfo = { colorDepth: 24, screenHeight: 1117, screenWidth: 1728, timeZoneOffset: -60, javaEnabled: false };
    const started = await payWith(
      a,
      link,
      token.body.tokenId,
      {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Hosted page payer',
        accept: 'application/json',
        'accept-language': 'de-DE,de;q=0.9',
      },
      { browserInfo },
    );
    expect(started, JSON.stringify(started.body)).toMatchObject({ status: 200, body: { status: 'PENDING' } });
    const charge = (await a.api.get(`/charge/${started.body.chargeId}`)).body;
    const sent = adyen.requests.find(
      (r) => r.operation === '/payments' && (r.body as { reference?: string }).reference === `${started.body.chargeId}:1`,
    );
    expect(sent?.body).toMatchObject({
      channel: 'Web',
      origin: DASHBOARD,
      returnUrl: `${started.body.threeDsRedirectUrl}/return`,
      browserInfo: {
        ...browserInfo,
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Hosted page payer',
        acceptHeader: 'application/json',
        language: 'de-DE',
      },
    });

    const returned = await visit(adyen.completeChallenge(String(charge.providerChargeId), 'complete'));
    const back = new URL(returned.location!);
    expect(`${back.origin}${back.pathname}`).toBe(`${DASHBOARD}/pay/${link.paymentLinkId}`);
    expect((await paymentOf(a, link, started.body.chargeId)).body).toMatchObject({ status: 'SUCCESS', currency: 'EUR', amount: 25 });
    expect(await countOf(a, link)).toBe(1);
  });

  it('reads only a payment of that link, with the public key of its account (404 otherwise)', async () => {
    const a = await account();
    const link = await createLink(a);
    const otherLink = await createLink(a);
    const paid = await pay(a, link, VISA_AU);
    const { chargeId } = paid.body;
    expect(await paymentOf(a, link, chargeId)).toEqual({
      status: 200,
      body: { ...paid.body, threeDsRedirectUrl: null, failureReason: null },
    });

    const notFound = { status: 404, body: { code: 84, message: 'Payment not found' } };
    expect(await paymentOf(a, otherLink, chargeId)).toMatchObject(notFound);
    expect(await paymentOf(a, link, randomUUID().replaceAll('-', ''))).toMatchObject(notFound);
    // A charge of the account that no link made.
    const direct = await a.api.post<Payment>('/charge/card', {
      amount: 3,
      providerId: a.providerIds[0],
      paymentInformation: card(VISA_AU),
    });
    expect(await paymentOf(a, link, direct.body.chargeId)).toMatchObject(notFound);
    // Another account's public key: neither its link nor its payment is known there.
    const other = await createAccount(bed.t);
    expect(await paymentOf(other, link, chargeId)).toMatchObject({ status: 404, body: { code: 61 } });
    expect(await client(bed.t.url).get(`/payment_link/${link.paymentLinkId}/payment/${chargeId}`)).toMatchObject({ status: 401 });
    expect(await paymentOf(a, link, 'x'.repeat(65))).toMatchObject({ status: 400, body: { code: 90 } });
  });
});

describe('GET /charge?AwaitingAuthentication (our extension)', () => {
  it('finds the PENDING charges waiting for their payer’s authentication, a hosted page’s too, and not a debit waiting for its bank', async () => {
    const a = await account();
    const link = await createLink(a);
    const onPage = (await pay(a, link, CARDS.challenge)).body.chargeId;
    const byApi = await a.api.post('/charge/card', {
      amount: 4,
      providerId: a.providerIds[0],
      threeDSNotificationUrl: 'https://shop.example/3ds-done',
      paymentInformation: card(CARDS.challenge),
    });
    const authenticated = await pay(a, link, CARDS.challenge);
    await authenticateAtSimulatedIssuer(authenticated.body.threeDsRedirectUrl!, 'complete');
    const debit = await a.api.post('/charge/bank_account', {
      amount: 6,
      providerId: a.providerIds[0],
      bankPaymentInformation: { bankCode: '062-000', accountNumber: '11110000', accountName: 'Ann Payer' },
    });
    expect([byApi.body.status, debit.body.status]).toEqual(['PENDING', 'PENDING']);

    const found = async (query: string) =>
      ((await a.api.get<{ charges: Array<{ chargeId: string }> }>(`/charge?${query}`)).body.charges ?? []).map((c) => c.chargeId);
    expect(await found('AwaitingAuthentication=true')).toEqual([byApi.body.chargeId, onPage]);
    expect(await found('awaitingAuthentication=true&Status=PENDING')).toEqual([byApi.body.chargeId, onPage]);
    expect(await found('AwaitingAuthentication=false&Status=PENDING')).toEqual([debit.body.chargeId]);
    expect(await found('AwaitingAuthentication=false')).toEqual([debit.body.chargeId, authenticated.body.chargeId]);
    expect(await found('AwaitingAuthentication=true&Status=SUCCESS')).toEqual([]);
    const refused = await a.api.get('/charge?AwaitingAuthentication=perhaps');
    expect(refused).toMatchObject({ status: 400, body: { code: 90 } });
    expect(Object.keys(refused.body.details as object)).toEqual(['awaitingAuthentication']);
  });
});
