import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  card,
  client,
  createAccount,
  expectNoCardData,
  recording,
  startTestGateway,
  VISA,
  VISA_AU,
  type TestAccount,
  type TestGateway,
} from './harness';

/**
 * Payment tokens: a browser turns a card into a token with the public key (CORS), the merchant
 * reads and searches tokens with the secret key, and a token pays or saves a card once only.
 */
let t: TestGateway;
let a: TestAccount;
let b: TestAccount;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const answers: string[] = [];

const CCV = '7391';
const ORIGIN = 'https://shop.example';

beforeAll(async () => {
  t = await startTestGateway({ clock });
  a = await createAccount(t);
  a.api = recording(a.api, answers);
  b = await createAccount(t, [], { throughCommand: true });
});
afterAll(() => t.close());

/** What a browser sends: the public key, an Origin, no secret key. */
async function tokenise(body: Record<string, unknown>, headers: Record<string, string> = {}, path = '/token/card') {
  return recording(client(t.url), answers).post(path, body, { 'x-publickey': a.publicKey, origin: ORIGIN, ...headers });
}

async function newToken(number = VISA): Promise<string> {
  const { status, body } = await tokenise({ providerId: a.providerIds[0], paymentInformation: card(number, { ccv: CCV }) });
  expect(status, JSON.stringify(body)).toBe(200);
  return String(body.tokenId);
}

describe('POST /token/card (public key)', () => {
  it('turns a card into a token for a provider, usable for 15 minutes', async () => {
    const { status, body } = await tokenise(
      { PaymentInformation: card(VISA, { ccv: CCV }), Ip: '198.51.100.4', Metadata: { cart: '42' } },
      { ProviderId: String(a.providerIds[1]) },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      tokenId: expect.stringMatching(/^[0-9a-f]{24}$/),
      gatewayTokenId: null,
      accountId: a.accountId,
      userId: null,
      card: expect.objectContaining({ cardNumber: '411111******1111', expiryDate: '12/30', cardholder: 'Test Payer', type: 'VISA' }),
      provider: { providerId: a.providerIds[1], type: 'dummy', name: 'Cheap international' },
      dateAdded: expect.any(String),
      dateUsed: null,
      payToStatus: null,
      metadata: { cart: '42' },
      clickToPay: null,
      expiresAt: expect.any(String),
    });
    expect(Date.parse(String(body.expiresAt)) - Date.parse(String(body.dateAdded))).toBe(15 * 60_000);
    const { expiresAt: _, ...stored } = body;
    expect((await a.api.get(`/token/${String(body.tokenId)}`)).body).toEqual(stored);
  });

  it("takes the providerId of the body, else the header, else the account's oldest card provider", async () => {
    const named = await tokenise({ providerId: a.providerIds[1], paymentInformation: card() }, { providerId: String(a.providerIds[0]) });
    const oldest = await tokenise({ paymentInformation: card() });
    expect([named.body.provider, oldest.body.provider]).toMatchObject([{ providerId: a.providerIds[1] }, { providerId: a.providerIds[0] }]);
  });

  it('for the least-cost provider of the card', async () => {
    const domestic = await tokenise({ Amount: 100, Currency: 'AUD', PaymentInformation: card(VISA_AU) }, {}, '/token/card/least_cost');
    const international = await tokenise({ amount: '100', paymentInformation: card(VISA) }, {}, '/token/card/least_cost');
    expect(domestic.status).toBe(200);
    expect([domestic.body.provider, international.body.provider]).toMatchObject([
      { providerId: a.providerIds[0] },
      { providerId: a.providerIds[1] },
    ]);
  });

  it.each([
    ['the secret key instead of the public key', 401, 40, { paymentInformation: card() }, { 'x-publickey': '', 'x-secretkey': 'sk' }],
    ['no card', 400, 81, {}, {}],
    ['a card failing Luhn', 400, 5, { paymentInformation: card('4111111111111112') }, {}],
    ['an expired card', 400, 14, { paymentInformation: card(VISA, { expiryDate: '01/20' }) }, {}],
    ['an unknown provider', 400, 39, { providerId: 'nope', paymentInformation: card() }, {}],
  ])('refuses %s', async (_what, status, code, body, headers) => {
    const response = await tokenise(body, headers);
    expect(response).toMatchObject({ status, body: { code, resource: '/token/card' } });
    expect(response.body.code).toBe(code);
  });
});

describe('CORS', () => {
  it('answers preflights of public-key routes and lets browsers read their answers, errors included', async () => {
    for (const path of ['/token/card', '/token/card/least_cost/']) {
      const preflight = await fetch(`${t.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-publickey' },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('x-publickey');
    }
    for (const headers of [{ 'x-publickey': a.publicKey }, {}] as Array<Record<string, string>>) {
      const response = await fetch(`${t.url}/token/card`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('is not offered on secret-key routes', async () => {
    const preflight = await fetch(`${t.url}/token`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    for (const path of ['/token', '/token/card']) {
      const response = await fetch(`${t.url}${path}`, { headers: { origin: ORIGIN, 'x-secretkey': a.secretKey } });
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});

describe('using a token', () => {
  it('works once: a payment method uses it up, and any second use answers 51', async () => {
    const tokenId = await newToken();
    const method = await a.api.post('/payment_method/token', { token: tokenId, metadata: { from: 'checkout' } });
    expect(method.status, JSON.stringify(method.body)).toBe(201);
    expect(method.body).toMatchObject({
      type: 'CARD',
      token: tokenId,
      providerId: a.providerIds[0],
      card: { cardNumber: '411111******1111' },
      metadata: { from: 'checkout' },
    });
    const row = await t.gateway.database.prisma.paymentToken.findUniqueOrThrow({ where: { id: tokenId } });
    expect(row).toMatchObject({ status: 'USED', usedBy: `payment_method:${String(method.body.paymentMethodId)}` });
    const access = await t.gateway.database.prisma.vaultAccess.findFirst({ where: { vaultItemId: row.vaultItemId ?? '' } });
    expect(access?.purpose).toBe(`payment method from token ${String(method.body.paymentMethodId)}`);
    expect(await t.gateway.database.prisma.vaultItem.findUnique({ where: { id: row.vaultItemId ?? '' } })).toMatchObject({ ccv: null });

    for (const [path, body] of [
      ['/payment_method/token', { token: tokenId }],
      ['/customer/token', { token: tokenId }],
      ['/charge/token', { amount: 5, token: tokenId }],
    ] as const) {
      const response = await a.api.post(path, body);
      expect(response, path).toMatchObject({ status: 400, body: { code: 51 } });
    }
    expect((await a.api.get(`/token/${tokenId}`)).body.dateUsed).toEqual(expect.any(String));
  });

  it('by a customer records the customer', async () => {
    const tokenId = await newToken();
    const customer = await a.api.post('/customer/token', { token: tokenId, email: 'tok@example.com' });
    expect(customer.status).toBe(201);
    const row = await t.gateway.database.prisma.paymentToken.findUniqueOrThrow({ where: { id: tokenId } });
    expect(row.usedBy).toBe(`customer:${String(customer.body.customerId)}`);
  });

  it("is refused once expired, and for another account (51); another account's GET is 404 (87)", async () => {
    const tokenId = await newToken();
    expect(await b.api.post('/payment_method/token', { token: tokenId })).toMatchObject({ status: 400, body: { code: 51 } });
    expect(await b.api.get(`/token/${tokenId}`)).toMatchObject({ status: 404, body: { code: 87 } });
    offsetMs += 15 * 60_000 + 1000;
    expect(await a.api.post('/payment_method/token', { token: tokenId })).toMatchObject({ status: 400, body: { code: 51 } });
    const expired = await a.api.get<{ tokens: Array<{ tokenId: string }> }>('/token?Status=EXPIRED');
    expect(expired.body.tokens.map((x) => x.tokenId)).toContain(tokenId);
  });
});

describe('GET /token', () => {
  it('filters by status, provider and dates, newest first, in pages', async () => {
    const c = await createAccount(t);
    const make = async (providerId: string) =>
      String(
        (await client(t.url).post('/token/card', { providerId, paymentInformation: card() }, { 'x-publickey': c.publicKey })).body.tokenId,
      );
    const start = clock.now();
    const [domestic = '', international = ''] = c.providerIds;
    const first = await make(domestic);
    const second = await make(international);
    const third = await make(domestic);
    await c.api.post('/payment_method/token', { token: first });
    const ids = async (query: string) => {
      const { status, body } = await c.api.get<{ count: number; limit: number; skip: number; tokens: Array<{ tokenId: string }> }>(
        `/token?${query}`,
      );
      expect(status).toBe(200);
      return { ...body, ids: body.tokens.map((x) => x.tokenId) };
    };
    expect((await ids('')).ids).toEqual([third, second, first]);
    expect((await ids('Status=ACTIVE')).ids).toEqual([third, second]);
    expect((await ids('Status=used')).ids).toEqual([first]);
    expect((await ids(`ProviderId=${international}`)).ids).toEqual([second]);
    expect((await ids(`AddedBefore=${start.toISOString()}`)).count).toBe(0);
    expect(await ids('Limit=10&Skip=2')).toMatchObject({ limit: 10, skip: 2, count: 3, ids: [first] });
    expect((await c.api.get('/token?Status=LOST')).body.code).toBe(90);
  });
});

describe('card data', () => {
  it('is in no table, log line or answer', () => expectNoCardData(t, answers, [VISA, VISA_AU], [CCV]));
});
