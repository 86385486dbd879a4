import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquirer,
  card,
  client,
  createAccount,
  expectNoCardData,
  recording,
  startTestGateway,
  VISA,
  type TestAccount,
  type TestGateway,
} from './harness';

/** Customers over REST: created with each kind of payment method, updated, removed (softly) and searched. */
let t: TestGateway;
let a: TestAccount;
let b: TestAccount;
const answers: string[] = [];

const CCV = '8264';
const bank = { bankCode: '062-000', accountNumber: '12345678', accountName: 'Ann Payer' };
const payId = { payId: 'pat@example.com', payIdType: 'EMAIL' };

type Body = Record<string, unknown>;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  a.api = recording(a.api, answers);
  b = await createAccount(t, [], { throughCommand: true });
});
afterAll(() => t.close());

async function createWithCard(extra: Body = {}) {
  const { status, body } = await a.api.post('/customer/card', {
    providerId: a.providerIds[0],
    paymentInformation: card(VISA, { ccv: CCV }),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+61400000000',
    ...extra,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

async function token(): Promise<string> {
  const { body } = await client(t.url).post(
    '/token/card',
    { providerId: a.providerIds[0], paymentInformation: card(VISA, { ccv: CCV }) },
    { 'x-publickey': a.publicKey },
  );
  return String(body.tokenId);
}

/** The keys of a customer's defaultPaymentMethod (PaymentMethodSummary). */
const SUMMARY_KEYS = [
  'card',
  'customerId',
  'dateAdded',
  'dateRemoved',
  'email',
  'fallbackPaymentMethodId',
  'metadata',
  'networkTokenId',
  'paymentMethodId',
  'providerId',
  'providerPaymentMethodData',
  'providerPaymentMethodId',
  'providerType',
  'token',
  'type',
  'vaultId',
];

describe('creating a customer', () => {
  it('with a card: the new payment method is its default', async () => {
    const customer = await createWithCard({
      reference: 'C-1',
      address: { line1: '1 Main St', city: 'Sydney' },
      ip: '203.0.113.7',
      metaData: { tier: 'gold' },
    });
    expect(customer).toMatchObject({
      customerId: expect.stringMatching(/^[0-9a-f]{32}$/),
      reference: 'C-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+61400000000',
      ip: '203.0.113.7',
      dateRemoved: null,
      address: { line1: '1 Main St', line2: null, city: 'Sydney', country: null, postalCode: null, state: null },
      defaultPaymentMethod: {
        customerId: customer.customerId,
        type: 'CARD',
        card: { cardNumber: '411111******1111', expiryDate: '12/30' },
        providerId: a.providerIds[0],
        email: 'ada@example.com',
        metadata: { tier: 'gold' },
        vaultId: null,
      },
    });
    expect(Object.keys(customer.defaultPaymentMethod as Body).sort()).toEqual(SUMMARY_KEYS);
    expect((await a.api.get(`/customer/${String(customer.customerId)}`)).body).toEqual(customer);
  });

  it('in PascalCase, with a vaulted card', async () => {
    const { status, body } = await a.api.post('/customer/card', {
      ProviderId: a.providerIds[0],
      PaymentInformation: { CardNumber: VISA, ExpiryDate: '12/30', Ccv: CCV, Cardholder: 'Ada L' },
      FirstName: 'Ada',
      VaultCard: true,
      VaultExpireSeconds: 600,
    });
    expect(status).toBe(201);
    expect(body.defaultPaymentMethod).toMatchObject({ vaultId: expect.stringMatching(/^[0-9a-f]{32}$/), card: { cardholder: 'Ada L' } });
  });

  it('with each other kind of payment method', async () => {
    const sim = acquirer(t);
    const variants: Array<[string, Body, Body]> = [
      ['/customer/token', { Token: await token(), Email: 'tok@example.com' }, { type: 'CARD', token: expect.any(String) }],
      ['/customer/bank_account', { ProviderId: a.providerIds[0], BankPaymentInformation: bank }, { type: 'BANK_ACCOUNT', card: null }],
      ['/customer/provider_token', { providerId: a.providerIds[0], providerToken: await sim.storedCard(), verify: true }, { type: 'CARD' }],
      [
        '/customer/provider_single_use_token',
        { providerId: a.providerIds[0], providerToken: await sim.singleUseToken() },
        { type: 'CARD' },
      ],
      [
        '/customer/payto',
        {
          FirstName: 'Pat',
          PayToAgreement: {
            PayerName: 'Pat Payer',
            Description: 'Rent',
            MaximumAmount: 800,
            ProviderId: a.providerIds[0],
            PayerPayIdDetails: payId,
          },
        },
        { type: 'PAYTO' },
      ],
    ];
    for (const [path, body, method] of variants) {
      const response = await a.api.post(path, body);
      expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
      expect(response.body.defaultPaymentMethod, path).toMatchObject({ ...method, customerId: response.body.customerId });
    }
  });

  it.each([
    ['no card', '/customer/card', 81, { providerId: 'p', paymentInformation: null }],
    ['an unknown provider', '/customer/card', 39, { providerId: 'no-such-provider', paymentInformation: card() }],
    ['a used-up or unknown token', '/customer/token', 51, { token: 'no-such-token' }],
    [
      'a PayTo agreement without a payer',
      '/customer/payto',
      90,
      { payToAgreement: { providerId: 'p', description: 'x', maximumAmount: 1 } },
    ],
  ])('refuses %s (code %i)', async (_what, path, code, body) => {
    const response = await a.api.post(path, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code, resource: path });
  });
});

describe('a customer’s payment methods', () => {
  it('are added as default only with setDefault, and listed as a bare array', async () => {
    const customer = await createWithCard();
    const id = String(customer.customerId);
    const first = (customer.defaultPaymentMethod as Body).paymentMethodId;
    const added = await a.api.post(`/customer/${id}/payment_method/card`, {
      providerId: a.providerIds[1],
      paymentInformation: card('5555555555554444', { ccv: CCV }),
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ customerId: id, customer: { customerId: id, email: 'ada@example.com' } });
    expect(((await a.api.get(`/customer/${id}`)).body.defaultPaymentMethod as Body).paymentMethodId).toBe(first);

    const fromToken = await a.api.post(`/customer/${id}/payment_method/token`, { Token: await token(), SetDefault: true });
    expect(fromToken.status).toBe(201);
    const bankMethod = await a.api.post(`/customer/${id}/bank_account`, {
      providerId: a.providerIds[0],
      bankPaymentInformation: bank,
      setDefault: false,
    });
    const payTo = await a.api.post(`/customer/${id}/payment_method/payto`, {
      providerId: a.providerIds[0],
      payerName: 'Ada',
      payerPayIdDetails: payId,
      description: 'Gym',
      maximumAmount: 50,
    });
    expect([bankMethod.status, payTo.status]).toEqual([201, 201]);
    expect(((await a.api.get(`/customer/${id}`)).body.defaultPaymentMethod as Body).paymentMethodId).toBe(fromToken.body.paymentMethodId);

    const list = await a.api.get<Body[]>(`/customer/${id}/payment_method`);
    expect(list.status).toBe(200);
    expect(list.body.map((m) => m.paymentMethodId)).toEqual([
      payTo.body.paymentMethodId,
      bankMethod.body.paymentMethodId,
      fromToken.body.paymentMethodId,
      added.body.paymentMethodId,
      first,
    ]);
  });
});

describe('PUT /customer/{id}', () => {
  it('changes only the fields given, and the default among its own payment methods', async () => {
    const customer = await createWithCard({ reference: 'R-PUT' });
    const id = String(customer.customerId);
    const updated = await a.api.put(`/customer/${id}`, { Email: 'new@example.com', address: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      ...customer,
      email: 'new@example.com',
      defaultPaymentMethod: { ...(customer.defaultPaymentMethod as Body), email: 'new@example.com' },
    });

    const second = await a.api.post(`/customer/${id}/bank_account`, { providerId: a.providerIds[0], bankPaymentInformation: bank });
    const changed = await a.api.put(`/customer/${id}`, { defaultPaymentMethodId: second.body.paymentMethodId, phone: '+61499999999' });
    expect(changed.body).toMatchObject({
      phone: '+61499999999',
      email: 'new@example.com',
      defaultPaymentMethod: { paymentMethodId: second.body.paymentMethodId },
    });

    const other = await createWithCard();
    const foreign = await a.api.put(`/customer/${id}`, { defaultPaymentMethodId: (other.defaultPaymentMethod as Body).paymentMethodId });
    expect(foreign).toMatchObject({ status: 400, body: { code: 56 } });
    expect(await a.api.put(`/customer/${id}`, { defaultPaymentMethodId: 'no-such-method' })).toMatchObject({
      status: 404,
      body: { code: 56 },
    });
  });
});

describe('DELETE /customer/{id}', () => {
  it('removes the customer and its payment methods softly, at the providers too', async () => {
    const sim = acquirer(t);
    const customer = await createWithCard();
    const id = String(customer.customerId);
    const added = await a.api.post(`/customer/${id}/payment_method/card`, { providerId: a.providerIds[0], paymentInformation: card() });
    const removed = await a.api.delete(`/customer/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      customerId: id,
      email: 'deleted',
      phone: 'deleted',
      dateRemoved: expect.any(String),
      firstName: 'Ada',
    });
    expect((await a.api.get(`/customer/${id}`)).body).toEqual(removed.body);
    expect((await a.api.get(`/customer/${id}/payment_method`)).body).toEqual([]);
    for (const method of [customer.defaultPaymentMethod as Body, added.body]) {
      expect((await a.api.get(`/payment_method/${String(method.paymentMethodId)}`)).body).toMatchObject({
        email: 'deleted',
        dateRemoved: expect.any(String),
      });
      expect(await sim.keeps(String(method.providerPaymentMethodId))).toBe(false);
    }
    for (const response of [
      await a.api.put(`/customer/${id}`, { email: 'x@example.com' }),
      await a.api.delete(`/customer/${id}`),
      await a.api.post(`/customer/${id}/bank_account`, { providerId: a.providerIds[0], bankPaymentInformation: bank }),
      await a.api.post('/charge/customer', { amount: 1, customerId: id }),
    ]) {
      expect(response).toMatchObject({ status: 400, body: { code: 72 } });
    }
  });

  it('leaves the cards at the providers with GatewayDelete=false', async () => {
    const customer = await createWithCard();
    expect((await a.api.delete(`/customer/${String(customer.customerId)}?gatewayDelete=false`)).status).toBe(200);
    expect(await acquirer(t).keeps(String((customer.defaultPaymentMethod as Body).providerPaymentMethodId))).toBe(true);
  });

  it("answers another account's customer as unknown (404, 52)", async () => {
    const id = String((await createWithCard()).customerId);
    for (const response of [
      await b.api.get(`/customer/${id}`),
      await b.api.put(`/customer/${id}`, { email: 'x@example.com' }),
      await b.api.delete(`/customer/${id}`),
      await b.api.get(`/customer/${id}/payment_method`),
      await b.api.post(`/customer/${id}/bank_account`, { providerId: a.providerIds[0], bankPaymentInformation: bank }),
    ]) {
      expect(response).toMatchObject({ status: 404, body: { code: 52 } });
    }
  });
});

describe('GET /customer', () => {
  it('finds by reference, email, words of name and email, dates and removal; sorts and pages', async () => {
    const c = await createAccount(t);
    const create = async (fields: Body) =>
      (await c.api.post('/customer/bank_account', { providerId: c.providerIds[0], bankPaymentInformation: bank, ...fields })).body;
    const start = new Date(Date.now() - 1000);
    const grace = await create({ reference: 'R1', firstName: 'Grace', lastName: 'Hopper', email: 'grace_hopper@navy.example' });
    const alan = await create({ reference: 'R2', firstName: 'Alan', lastName: 'Turing', email: 'Alan@Bletchley.example' });
    const ada = await create({ reference: 'R3', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    await c.api.delete(`/customer/${String(ada.customerId)}`);
    const ids = async (query: string) => {
      const { status, body } = await c.api.get<{ count: number; limit: number; skip: number; customers: Body[] }>(`/customer?${query}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return { ...body, ids: body.customers.map((x) => x.customerId) };
    };
    expect((await ids('')).ids).toEqual([alan.customerId, grace.customerId]);
    expect((await ids('IncludeRemoved=True')).ids).toEqual([ada.customerId, alan.customerId, grace.customerId]);
    expect((await ids('Reference=R1')).ids).toEqual([grace.customerId]);
    expect((await ids('Email=alan@bletchley.example')).ids).toEqual([alan.customerId]);
    expect((await ids('Search=hopper')).ids).toEqual([grace.customerId]);
    expect((await ids('Search=alan%20bletchley')).ids).toEqual([alan.customerId]);
    expect((await ids('Search=lovelace')).ids).toEqual([]);
    // LIKE's wildcards are searched for as characters.
    expect((await ids('Search=%25')).ids).toEqual([]);
    expect((await ids('Search=r_ce')).ids).toEqual([]);
    expect((await ids('Search=e_hopper')).ids).toEqual([grace.customerId]);
    expect((await ids('Search=lovelace&IncludeRemoved=true')).ids).toEqual([ada.customerId]);
    expect((await ids(`AddedAfter=${start.toISOString()}`)).count).toBe(2);
    expect((await ids(`AddedBefore=${start.toISOString()}`)).count).toBe(0);
    expect((await ids('SortBy=Name&IncludeRemoved=true')).ids).toEqual([grace.customerId, ada.customerId, alan.customerId]);
    expect(await ids('limit=1&skip=1')).toMatchObject({ limit: 1, skip: 1, count: 2, ids: [grace.customerId] });
    expect((await c.api.get('/customer?SortBy=Amount')).body.code).toBe(90);
  });
});

describe('card data', () => {
  it('is in no table, log line or answer', () => expectNoCardData(t, answers, [VISA, '5555555555554444'], [CCV, '468']));
});
