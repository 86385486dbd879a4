import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, client, createAccount, startTestGateway, VISA_AU, type TestAccount, type TestGateway } from './harness';

let t: TestGateway;
let a: TestAccount;
const DASHBOARD = 'https://pay.example.test';
// A 1×1 PNG.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

beforeAll(async () => {
  t = await startTestGateway({ dashboardUrl: DASHBOARD });
  a = await createAccount(t);
});
afterAll(() => t.close());

type Link = Record<string, unknown> & { paymentLinkId: string };

async function createLink(fields: Record<string, unknown> = {}): Promise<Link> {
  const { status, body } = await a.api.post<Link>('/payment_link', { title: 'Concert ticket', amount: 25, currency: 'AUD', ...fields });
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** What the hosted page does: tokenise the card with the public key, then pay the link with the token. */
async function pay(link: Link, cardNumber = VISA_AU, idempotencyKey?: string, payer: { email?: string } = {}) {
  const browser = client(t.url);
  const headers = { 'x-publickey': a.publicKey };
  const token = await browser.post<{ tokenId: string }>('/token/card', { paymentInformation: card(cardNumber) }, headers);
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return browser.post(
    `/payment_link/${link.paymentLinkId}/pay`,
    { token: token.body.tokenId, ...payer },
    { ...headers, ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) },
  );
}

const countOf = async (link: Link) => (await a.api.get<Link>(`/payment_link/${link.paymentLinkId}`)).body.countPayments;

describe('POST /payment_link', () => {
  it('creates a link with every field of the spec, in the casings and enum forms the SDKs send', async () => {
    const { status, body } = await a.api.post('/payment_link', {
      Title: 'Donation to the shelter',
      Amount: '12.5',
      Currency: 'aud',
      AllowedPaymentTypes: ['card', 'PayPal'],
      Description: 'Every dollar feeds a dog',
      Image: PNG,
      ConfirmationMessage: 'Thank you!',
      RedirectUrl: 'https://shelter.example/thanks',
      CallToAction: 1,
      LimitPayments: 3,
      InvoiceId: 'INV-7',
      MetaData: { campaign: 'winter' },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      url: `${DASHBOARD}/pay/${String(body.paymentLinkId)}`,
      paymentLinkId: expect.stringMatching(/^[0-9a-f]{32}$/),
      dateAdded: expect.any(String),
      accountId: a.accountId,
      publicKey: a.publicKey,
      title: 'Donation to the shelter',
      amount: 12.5,
      currency: 'AUD',
      allowedPaymentTypes: ['card', 'paypal'],
      description: 'Every dollar feeds a dog',
      image: PNG,
      confirmationMessage: 'Thank you!',
      redirectUrl: 'https://shelter.example/thanks',
      callToAction: 'Donate',
      limitPayments: 3,
      countPayments: 0,
      askEmail: false,
      invoiceId: 'INV-7',
      metadata: { campaign: 'winter' },
    });
    expect((await a.api.get(`/payment_link/${String(body.paymentLinkId)}`)).body).toEqual(body);
  });

  it('defaults to cards, Pay, the account currency, no limit; optional fields are null', async () => {
    const body = await createLink({ currency: undefined, title: 'Plain' });
    expect(body).toMatchObject({
      allowedPaymentTypes: ['card'],
      callToAction: 'Pay',
      currency: 'AUD',
      limitPayments: null,
      description: null,
      image: null,
      redirectUrl: null,
      metadata: null,
    });
  });

  it.each([
    ['an SVG image (it could carry script)', { image: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+' }, 'image'],
    ['an image whose bytes are not its type', { image: PNG.replace('image/png', 'image/jpeg') }, 'image'],
    ['an image over 512 KB', { image: `data:image/png;base64,iVBORw0KGgo${'A'.repeat(700_000)}` }, 'image'],
    ['an image given as a URL', { image: 'https://example.com/logo.png' }, 'image'],
    ['a javascript: redirect', { redirectUrl: 'javascript:alert(1)' }, 'redirectUrl'],
    ['an unknown payment type', { allowedPaymentTypes: ['bitcoin'] }, 'allowedPaymentTypes.0'],
    ['an unknown call to action', { callToAction: 'Buy' }, 'callToAction'],
    ['a limit of zero', { limitPayments: 0 }, 'limitPayments'],
    ['no title', { title: undefined }, 'title'],
  ])('refuses %s (90, with the field)', async (_name, fields, field) => {
    const { status, body } = await a.api.post('/payment_link', { title: 'x', amount: 5, ...fields });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 90 });
    expect(Object.keys(body.details as Record<string, string>)).toContain(field);
  });

  it('refuses amounts the currency cannot hold', async () => {
    expect((await a.api.post('/payment_link', { title: 'x', amount: 1.005, currency: 'AUD' })).body).toMatchObject({ code: 2 });
    expect((await a.api.post('/payment_link', { title: 'x', amount: -1 })).body).toMatchObject({ code: 74 });
  });
});

describe('GET /payment_link', () => {
  it('searches newest first or by title, by date, paged, answering {paymentLinks, count}; never another account’s', async () => {
    const b = await createAccount(t, undefined, { throughCommand: true });
    const made: Link[] = [];
    for (const title of ['Bravo', 'Alpha', 'Charlie']) {
      made.push((await b.api.post<Link>('/payment_link', { title, amount: 1 })).body);
    }
    const all = await b.api.get<{ paymentLinks: Link[]; count: number }>('/payment_link');
    expect(Object.keys(all.body).sort()).toEqual(['count', 'paymentLinks']);
    expect(all.body.count).toBe(3);
    expect(all.body.paymentLinks.map((l) => l.title)).toEqual(['Charlie', 'Alpha', 'Bravo']);
    const byTitle = await b.api.get<{ paymentLinks: Link[] }>('/payment_link?SortBy=Title&Limit=2&Skip=1');
    expect(byTitle.body.paymentLinks.map((l) => l.title)).toEqual(['Bravo', 'Charlie']);
    const after = encodeURIComponent(String(made[1]?.dateAdded));
    const later = await b.api.get<{ paymentLinks: Link[]; count: number }>(`/payment_link?addedAfter=${after}`);
    expect(later.body.paymentLinks.map((l) => l.title)).toEqual(['Charlie']);
    expect((await b.api.get('/payment_link?AddedBefore=2000-01-01')).body).toEqual({ paymentLinks: [], count: 0 });
    expect((await a.api.get(`/payment_link/${made[0]?.paymentLinkId}`)).status).toBe(404);
  });
});

describe('the hosted page', () => {
  it('reads a link’s public face with no key: only what the payer must see', async () => {
    const link = await createLink({
      description: 'Row A',
      image: PNG,
      limitPayments: 10,
      invoiceId: 'secret-invoice',
      metadata: { m: 'x' },
    });
    const { status, body } = await client(t.url).get(`/payment_link/${link.paymentLinkId}/public`);
    expect(status).toBe(200);
    const account = await t.gateway.database.prisma.account.findUniqueOrThrow({ where: { id: a.accountId } });
    expect(body).toEqual({
      paymentLinkId: link.paymentLinkId,
      merchantName: account.name,
      title: 'Concert ticket',
      description: 'Row A',
      image: PNG,
      amount: 25,
      currency: 'AUD',
      callToAction: 'Pay',
      publicKey: a.publicKey,
      askEmail: false,
      paymentTypes: ['card'],
      soldOut: false,
    });
    expect((await client(t.url).get('/payment_link/00000000000000000000000000000000/public')).status).toBe(404);
  });

  it('offers only the payment types the page can take', async () => {
    const link = await createLink({ allowedPaymentTypes: ['paypal', 'upi'] });
    expect((await client(t.url).get(`/payment_link/${link.paymentLinkId}/public`)).body).toMatchObject({ paymentTypes: [] });
    const token = await client(t.url).post<{ tokenId: string }>(
      '/token/card',
      { paymentInformation: card() },
      { 'x-publickey': a.publicKey },
    );
    const refused = await client(t.url).post(
      `/payment_link/${link.paymentLinkId}/pay`,
      { token: token.body.tokenId },
      { 'x-publickey': a.publicKey },
    );
    expect(refused).toMatchObject({ status: 400, body: { code: 58 } });
  });

  it('charges the token for the link’s amount and counts the payment', async () => {
    const link = await createLink({ confirmationMessage: 'See you there', redirectUrl: 'https://shop.example/done', invoiceId: 'INV-9' });
    const { status, body } = await pay(link);
    expect(status).toBe(200);
    expect(body).toEqual({
      chargeId: expect.any(String),
      status: 'SUCCESS',
      amount: 25,
      currency: 'AUD',
      confirmationMessage: 'See you there',
      redirectUrl: 'https://shop.example/done',
      threeDsRedirectUrl: null,
      failureReason: null,
      // The payer's receipt: the link's invoice id as the reference, the card masked to 6 and 4.
      dateAdded: expect.any(String),
      reference: 'INV-9',
      cardNumber: '424242******4242',
      cardType: 'VISA',
    });
    expect(await countOf(link)).toBe(1);
    const charge = await a.api.get<{ dateAdded: string }>(`/charge/${String(body.chargeId)}`);
    expect(charge.body).toMatchObject({ amount: 25, currency: 'AUD', status: 'SUCCESS', dateAdded: body.dateAdded });
    const read = await client(t.url).get(`/payment_link/${link.paymentLinkId}/payment/${String(body.chargeId)}`, {
      'x-publickey': a.publicKey,
    });
    expect(read).toMatchObject({ status: 200, body });
    const row = await t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: String(body.chargeId) } });
    expect(row).toMatchObject({ paymentLinkId: link.paymentLinkId, invoiceNumber: 'INV-9' });
  });

  it('asks for the payer’s email when the link says so, and keeps it on the charge', async () => {
    const link = await createLink({ askEmail: true });
    expect(link.askEmail).toBe(true);
    expect((await client(t.url).get(`/payment_link/${link.paymentLinkId}/public`)).body).toMatchObject({ askEmail: true });
    expect(await pay(link)).toMatchObject({ status: 400, body: { code: 90, details: { email: 'required' } } });
    expect(await pay(link, VISA_AU, undefined, { email: 'not an email' })).toMatchObject({ status: 400, body: { code: 90 } });
    expect(await countOf(link)).toBe(0);
    const paid = await pay(link, VISA_AU, undefined, { email: 'ann@example.com' });
    expect(paid.status).toBe(200);
    const charge = await a.api.get(`/charge/${String(paid.body.chargeId)}`);
    expect(charge.body).toMatchObject({ paymentLinkId: link.paymentLinkId, paymentInformation: { email: 'ann@example.com' } });
  });

  it('finds a link’s payments and declined attempts by PaymentLinkId (our extension), only the account’s', async () => {
    const link = await createLink();
    const other = await createLink();
    const declined = await pay(link, '4000000000009995');
    const paid = await pay(link);
    await pay(other);
    const chargeIdOf = (answer: { body: Record<string, unknown> }) =>
      String(answer.body.chargeId ?? (answer.body.details as Record<string, string>).chargeId);
    const search = async (query: string) =>
      (await a.api.get<{ charges: Array<{ chargeId: string; paymentLinkId: string }> }>(`/charge?${query}`)).body.charges;
    const charges = await search(`PaymentLinkId=${link.paymentLinkId}`);
    expect(charges.map((c) => c.chargeId)).toEqual([chargeIdOf(paid), chargeIdOf(declined)]);
    expect(charges.map((c) => c.paymentLinkId)).toEqual([link.paymentLinkId, link.paymentLinkId]);
    expect((await search(`paymentLinkId=${link.paymentLinkId}&Status=FAILED`)).map((c) => c.chargeId)).toEqual([chargeIdOf(declined)]);
    const stranger = await createAccount(t);
    expect((await stranger.api.get(`/charge?PaymentLinkId=${link.paymentLinkId}`)).body).toMatchObject({ count: 0 });
  });

  it('charges once when the same payment is sent twice (a double click)', async () => {
    const link = await createLink();
    const token = await client(t.url).post<{ tokenId: string }>(
      '/token/card',
      { paymentInformation: card(VISA_AU) },
      { 'x-publickey': a.publicKey },
    );
    const send = () =>
      client(t.url).post(
        `/payment_link/${link.paymentLinkId}/pay`,
        { token: token.body.tokenId },
        { 'x-publickey': a.publicKey, 'idempotency-key': 'click-1' },
      );
    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();
    // The second is refused while the first runs (409), or answered as the first once its charge is made.
    const answered = [first, second].filter((answer) => answer.status !== 409);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const answer of answered) expect(answer).toEqual(third);
    expect(third.status).toBe(200);
    expect(await countOf(link)).toBe(1);
  });

  it('gives the slot back when the card is declined, and the payer can try again', async () => {
    const link = await createLink({ limitPayments: 1 });
    const declined = await pay(link, '4000000000009995');
    // The public key's caller learns that it was declined, not why (docs/operations.md).
    expect(declined).toMatchObject({
      status: 400,
      body: { code: 43, message: 'The card was declined', isRetryable: false, gatewayCode: null },
    });
    expect(await countOf(link)).toBe(0);
    expect((await pay(link)).status).toBe(200);
    expect(await countOf(link)).toBe(1);
  });

  it('never takes more payments than its limit, even when payers race', async () => {
    // Five payments at once on the embedded database (one session, its index upkeep in this very
    // thread) can outlast the usual 400 ms provider timeout: this test is about the limit, so its
    // account's provider waits longer.
    const usual = a;
    a = await createAccount(t, [{ ...CHEAP_DOMESTIC, timeoutMs: 5_000 }]);
    try {
      const link = await createLink({ limitPayments: 2 });
      const results = await Promise.all(Array.from({ length: 5 }, () => pay(link)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      for (const refused of results.filter((r) => r.status !== 200)) expect(refused).toMatchObject({ status: 400, body: { code: 46 } });
      expect(await countOf(link)).toBe(2);
      expect((await client(t.url).get(`/payment_link/${link.paymentLinkId}/public`)).body).toMatchObject({ soldOut: true });
    } finally {
      a = usual;
    }
  });

  it('needs the public key of the link’s account', async () => {
    const link = await createLink();
    const other = await createAccount(t);
    const noKey = await client(t.url).post(`/payment_link/${link.paymentLinkId}/pay`, { token: 'x' });
    expect(noKey.status).toBe(401);
    const wrongAccount = await client(t.url).post(
      `/payment_link/${link.paymentLinkId}/pay`,
      { token: 'x' },
      { 'x-publickey': other.publicKey },
    );
    expect(wrongAccount.status).toBe(404);
  });

  it('lets browsers on other origins pay (CORS preflight)', async () => {
    const link = await createLink();
    const preflight = await fetch(`${t.url}/payment_link/${link.paymentLinkId}/pay`, {
      method: 'OPTIONS',
      headers: {
        origin: DASHBOARD,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'idempotency-key, x-publickey',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
  });
});
