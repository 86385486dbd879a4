import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquirer,
  card,
  createAccount,
  expectNoCardData,
  recording,
  startTestGateway,
  VISA,
  type TestAccount,
  type TestGateway,
} from './harness';

/**
 * Payment methods over REST: every way of saving one, the card at the provider (and in the vault),
 * network tokens, verification, updates, soft deletes and search.
 */
let t: TestGateway;
let a: TestAccount;
let b: TestAccount;
const answers: string[] = [];

const MC = '5555555555554444';
const CCV = '9371';
const payer = {
  payerName: 'Pat Payer',
  payerPayIdDetails: { payId: 'pat@example.com', payIdType: 'EMAIL' },
  description: 'Rent',
  maximumAmount: 500,
};
const bank = { bankCode: '062-000', accountNumber: '12345678', accountName: 'Ann Payer' };

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  a.api = recording(a.api, answers);
  b = await createAccount(t, [], { throughCommand: true });
});
afterAll(() => t.close());

async function saveCard(extra: Record<string, unknown> = {}, number = VISA) {
  const { status, body } = await a.api.post('/payment_method/card', {
    providerId: a.providerIds[0],
    paymentInformation: card(number, { ccv: CCV }),
    ...extra,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

describe('saving a card', () => {
  it('keeps it at the provider and answers the masked card only, in camelCase and PascalCase', async () => {
    const java = await saveCard({ vaultCard: null, metaData: { plan: 'gold' }, webhook: null, fallbackPaymentMethodId: null });
    const dotNet = await a.api.post('/payment_method/card', {
      ProviderId: a.providerIds[0],
      PaymentInformation: { CardNumber: MC, ExpiryDate: '11/31', Ccv: CCV, Cardholder: 'Net Payer' },
      Ip: '203.0.113.9',
    });
    expect(dotNet.status).toBe(201);
    expect(java).toMatchObject({
      paymentMethodId: expect.stringMatching(/^[0-9a-f]{32}$/),
      customerId: null,
      type: 'CARD',
      card: { cardNumber: '411111******1111', expiryDate: '12/30', cardholder: 'Test Payer', type: 'VISA', cardIin: '411111' },
      bankPayment: null,
      providerId: a.providerIds[0],
      providerType: 'dummy',
      provider: { providerId: a.providerIds[0], type: 'dummy' },
      providerPaymentMethodId: expect.stringMatching(/^tok_/),
      vaultId: null,
      networkToken: null,
      dateRemoved: null,
      metadata: { plan: 'gold' },
    });
    expect(dotNet.body).toMatchObject({
      card: { cardNumber: '555555******4444', expiryDate: '11/31', cardholder: 'Net Payer' },
      ip: '203.0.113.9',
    });
    expect(await acquirer(t).keeps(String(java.providerPaymentMethodId))).toBe(true);
    expect((await a.api.get(`/payment_method/${String(java.paymentMethodId)}`)).body).toEqual(java);
  });

  it('can be charged through the payment-method charge', async () => {
    const method = await saveCard();
    const { status, body } = await a.api.post('/charge/payment_method', { amount: 12.5, paymentMethodId: method.paymentMethodId });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      paymentInformation: { paymentMethodId: method.paymentMethodId, card: { cardNumber: '411111******1111' } },
    });
  });

  it('vaults the card with vaultCard, with its expiry', async () => {
    const method = await saveCard({ vaultCard: true, vaultExpireSeconds: 3600 });
    const vaultId = String(method.vaultId);
    const item = await a.api.get(`/vault/${vaultId}`);
    expect(item.body).toMatchObject({ maskedCardNumber: '411111******1111', hasCvv: true });
    expect(Date.parse(String(item.body.expireDate)) - Date.parse(String(item.body.createdDate))).toBe(3_600_000);
    const dated = await saveCard({ VaultCard: true, VaultExpireDate: Date.now() + 86_400_000 });
    expect(dated.vaultId).toEqual(expect.stringMatching(/^[0-9a-f]{32}$/));
  });

  it.each([
    ['both vault expiries', 85, { vaultCard: true, vaultExpireSeconds: 60, vaultExpireDate: '2099-01-01T00:00:00Z' }],
    ['a past vault expiry', 86, { vaultCard: true, vaultExpireDate: '2020-01-01T00:00:00Z' }],
    ['no card', 81, { paymentInformation: null }],
    ['a card failing Luhn', 5, { paymentInformation: card('4111111111111112') }],
    ['a bad CCV', 6, { paymentInformation: card(VISA, { ccv: '12a' }) }],
    ['an expired card', 14, { paymentInformation: card(VISA, { expiryDate: '01/20' }) }],
    ['an unknown provider', 39, { providerId: 'no-such-provider' }],
    ['an unknown fallback', 56, { fallbackPaymentMethodId: 'no-such-method' }],
  ])('refuses %s (code %i) and saves nothing', async (_what, code, extra) => {
    const before = (await a.api.get('/payment_method?Limit=1')).body.count;
    const { status, body } = await a.api.post('/payment_method/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      ...extra,
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body).toMatchObject({ code, resource: '/payment_method/card' });
    expect((await a.api.get('/payment_method?Limit=1')).body.count).toBe(before);
  });

  it('saves an expired card with skipExpiryDateValidation', async () => {
    const method = await saveCard({ skipExpiryDateValidation: true, paymentInformation: card(VISA, { expiryDate: '01/20' }) });
    expect(method.card).toMatchObject({ expiryDate: '01/20' });
  });

  it('creates a network token of the card', async () => {
    const method = await saveCard({ createNetworkToken: true });
    expect(method.networkTokenId).toEqual(expect.stringMatching(/^ntok_/));
    expect(method.networkToken).toEqual({
      networkTokenId: method.networkTokenId,
      schemeTokenId: expect.stringMatching(/^4\d{15}$/),
      providerId: a.providerIds[0],
      providerType: 'dummy',
      status: 'ACTIVE',
      schemeTokenData: null,
      authenticationMethod: null,
    });
  });

  it('verifies the card when asked: a declined card is refused with the decline and not kept', async () => {
    expect((await saveCard({ verify: true })).type).toBe('CARD');
    for (const [number, code, gatewayCode] of [
      ['4000000000000002', 43, '05'],
      ['4000000000009995', 15, '51'],
    ] as const) {
      const { status, body } = await a.api.post('/payment_method/card', {
        providerId: a.providerIds[0],
        verify: true,
        paymentInformation: card(number),
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code, gatewayCode });
    }
  });
});

describe('other ways of saving', () => {
  it('from the vault of a saved card, at a second provider', async () => {
    const vaulted = await saveCard({ vaultCard: true });
    const { status, body } = await a.api.post('/payment_method/vault', {
      ProviderId: a.providerIds[1],
      PaymentMethodId: vaulted.paymentMethodId,
      Ccv: '482',
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ type: 'CARD', providerId: a.providerIds[1], vaultId: vaulted.vaultId, card: vaulted.card });
    expect(body.providerPaymentMethodId).not.toBe(vaulted.providerPaymentMethodId);
    const access = await t.gateway.database.prisma.vaultAccess.findFirst({ where: { vaultItemId: String(vaulted.vaultId) } });
    expect(access).toMatchObject({
      purpose: `payment method from vault ${String(body.paymentMethodId)}`,
      actor: expect.stringMatching(/^secret-key:/),
    });

    const notVaulted = await saveCard();
    const refused = await a.api.post('/payment_method/vault', {
      providerId: a.providerIds[1],
      paymentMethodId: notVaulted.paymentMethodId,
    });
    expect(refused.body.code).toBe(66);
    const badCcv = await a.api.post('/payment_method/vault', {
      providerId: a.providerIds[1],
      paymentMethodId: vaulted.paymentMethodId,
      ccv: '12',
    });
    expect(badCcv).toMatchObject({ status: 400, body: { code: 6 } });
    await a.api.delete(`/vault/${String(vaulted.vaultId)}`);
    const erased = await a.api.post('/payment_method/vault', { providerId: a.providerIds[1], paymentMethodId: vaulted.paymentMethodId });
    expect(erased).toMatchObject({ status: 404, body: { code: 62 } });
  });

  it("from the provider's reusable and single-use tokens", async () => {
    const sim = acquirer(t);
    const reusable = await sim.storedCard(MC);
    const brought = await a.api.post('/payment_method/provider_token', {
      providerId: a.providerIds[0],
      providerToken: reusable,
      email: 'pat@example.com',
      providerTokenData: { source: 'page' },
      verify: true,
    });
    expect(brought.status).toBe(201);
    expect(brought.body).toMatchObject({
      type: 'CARD',
      customerId: null,
      email: 'pat@example.com',
      providerPaymentMethodId: reusable,
      providerPaymentMethodData: { source: 'page' },
      card: { cardNumber: '555555******4444', expiryDate: '12/30', cardholder: 'Brought Payer', type: 'MASTERCARD' },
    });

    const singleUse = await sim.singleUseToken();
    const exchanged = await a.api.post('/payment_method/provider_single_use_token', {
      ProviderId: a.providerIds[0],
      ProviderToken: singleUse,
    });
    expect(exchanged.status).toBe(201);
    expect(exchanged.body.providerPaymentMethodId).toEqual(expect.stringMatching(/^tok_/));
    expect(exchanged.body.card).toMatchObject({ cardNumber: '411111******1111' });

    for (const [path, providerToken] of [
      ['/payment_method/provider_single_use_token', singleUse],
      ['/payment_method/provider_token', 'tok_unknown'],
    ] as const) {
      const { status, body } = await a.api.post(path, { providerId: a.providerIds[0], providerToken });
      expect(status).toBe(400);
      expect(body.code).toBe(51);
    }
  });

  it('a bank account, kept as given', async () => {
    const { status, body } = await a.api.post('/payment_method/bank_account', {
      providerId: a.providerIds[0],
      BankPaymentInformation: bank,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ type: 'BANK_ACCOUNT', card: null, bankPayment: bank, providerPaymentMethodId: null });
  });

  it('a PayTo agreement set up at the provider', async () => {
    const { status, body } = await a.api.post('/payment_method/payto', { providerId: a.providerIds[0], ...payer });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      type: 'PAYTO',
      payTo: {
        payToId: expect.stringMatching(/^pta_/),
        status: 'ACTIVE',
        payerName: 'Pat Payer',
        payerPayIdDetails: payer.payerPayIdDetails,
      },
      payToStatus: 'ACTIVE',
    });
    const declined = await a.api.post('/payment_method/payto', {
      providerId: a.providerIds[0],
      ...payer,
      payerPayIdDetails: { payId: 'declined@example.com', payIdType: 'EMAIL' },
    });
    expect(declined.body).toMatchObject({ code: 43, gatewayCode: '05' });
    expect((await a.api.post('/payment_method/payto', { providerId: a.providerIds[0], ...payer, maximumAmount: 10_000 })).status).toBe(400);
    // A charge over the agreement's limit is refused before the provider is asked (code 24).
    const limit = payer.maximumAmount;
    const over = await a.api.post('/charge/payment_method', { paymentMethodId: body.paymentMethodId, amount: limit + 0.01 });
    expect(over).toMatchObject({ status: 400, body: { code: 24 } });
    const within = await a.api.post('/charge/payment_method', { paymentMethodId: body.paymentMethodId, amount: limit });
    expect(within).toMatchObject({ status: 201, body: { status: 'PENDING' } });
  });

  it('with a fallback payment method, which must be active', async () => {
    const fallback = await saveCard();
    const method = await saveCard({ fallbackPaymentMethodId: fallback.paymentMethodId });
    expect(method.fallbackPaymentMethodId).toBe(fallback.paymentMethodId);
    await a.api.delete(`/payment_method/${String(fallback.paymentMethodId)}`);
    const refused = await a.api.post('/payment_method/card', {
      providerId: a.providerIds[0],
      paymentInformation: card(),
      fallbackPaymentMethodId: fallback.paymentMethodId,
    });
    expect(refused.body.code).toBe(73);
  });

  it("refuses another customer's method as fallback, so a charge never takes someone else's card", async () => {
    const customer = async (email: string) =>
      (await a.api.post('/customer/card', { providerId: a.providerIds[0], email, paymentInformation: card() })).body;
    const x = await customer('x@example.com');
    const y = await customer('y@example.com');
    const yMethod = (y.defaultPaymentMethod as { paymentMethodId: string }).paymentMethodId;
    const path = `/customer/${String(x.customerId)}/payment_method/card`;
    const refused = await a.api.post(path, { providerId: a.providerIds[0], paymentInformation: card(), fallbackPaymentMethodId: yMethod });
    expect(refused).toMatchObject({ status: 400, body: { code: 90, details: { fallbackPaymentMethodId: expect.any(String) } } });
    const xMethod = (x.defaultPaymentMethod as { paymentMethodId: string }).paymentMethodId;
    const ownOrShared = [xMethod, String((await saveCard()).paymentMethodId)];
    for (const fallbackPaymentMethodId of ownOrShared) {
      const added = await a.api.post(path, { providerId: a.providerIds[0], paymentInformation: card(), fallbackPaymentMethodId });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
  });
});

describe('PUT and DELETE /payment_method/{id}', () => {
  it('updates expiry and cardholder at the provider and here', async () => {
    const method = await saveCard({ metadata: { a: '1' } });
    const id = String(method.paymentMethodId);
    const { status, body } = await a.api.put(`/payment_method/${id}`, {
      PaymentMethodId: id,
      Card: { ExpiryDate: '10/33', Cardholder: 'New Name' },
    });
    expect(status).toBe(200);
    expect(body.card).toMatchObject({ expiryDate: '10/33', cardholder: 'New Name', cardNumber: '411111******1111' });
    expect(body.metadata).toEqual({ a: '1' });
    expect((await a.api.put(`/payment_method/${id}`, { card: { cardholder: 'Only Name' } })).body.card).toMatchObject({
      expiryDate: '10/33',
      cardholder: 'Only Name',
    });
    expect((await a.api.put(`/payment_method/${id}`, {})).body.code).toBe(105);
    expect((await a.api.put(`/payment_method/${id}`, { card: { expiryDate: '13/30' } })).body.code).toBe(9);
    const bankMethod = await a.api.post('/payment_method/bank_account', { providerId: a.providerIds[0], bankPaymentInformation: bank });
    expect((await a.api.put(`/payment_method/${String(bankMethod.body.paymentMethodId)}`, { card: { cardholder: 'X' } })).body.code).toBe(
      106,
    );
  });

  it('removes softly: the provider forgets the card unless GatewayDelete is false', async () => {
    const sim = acquirer(t);
    const method = await saveCard({ vaultCard: true });
    const id = String(method.paymentMethodId);
    const removed = await a.api.delete(`/payment_method/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ paymentMethodId: id, email: 'deleted', dateRemoved: expect.any(String) });
    expect((await a.api.get(`/payment_method/${id}`)).body).toEqual(removed.body);
    expect(await sim.keeps(String(method.providerPaymentMethodId))).toBe(false);
    for (const response of [
      await a.api.delete(`/payment_method/${id}`),
      await a.api.put(`/payment_method/${id}`, { card: { cardholder: 'X' } }),
    ]) {
      expect(response.body.code).toBe(73);
    }

    const kept = await saveCard();
    expect((await a.api.delete(`/payment_method/${String(kept.paymentMethodId)}?GatewayDelete=False`)).status).toBe(200);
    expect(await sim.keeps(String(kept.providerPaymentMethodId))).toBe(true);
  });

  it("answers another account's payment method as unknown (404, 56)", async () => {
    const id = String((await saveCard()).paymentMethodId);
    for (const response of [
      await b.api.get(`/payment_method/${id}`),
      await b.api.put(`/payment_method/${id}`, { card: { cardholder: 'X' } }),
      await b.api.delete(`/payment_method/${id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(56);
    }
    expect((await a.api.get(`/payment_method/${id}`)).status).toBe(200);
  });
});

describe('GET /payment_method', () => {
  it('filters by provider, type, scheme, words, dates and removal, newest first, in pages', async () => {
    const c = await createAccount(t);
    const save = async (body: Record<string, unknown>, path = '/payment_method/card') => (await c.api.post(path, body)).body;
    const start = new Date();
    const first = await save({ providerId: c.providerIds[0], paymentInformation: card(VISA, { cardholder: 'Ada Lovelace' }) });
    const second = await save({ providerId: c.providerIds[1], paymentInformation: card(MC, { cardholder: 'Alan Turing' }) });
    const third = await save({ providerId: c.providerIds[0], bankPaymentInformation: bank }, '/payment_method/bank_account');
    await c.api.delete(`/payment_method/${String(first.paymentMethodId)}`);
    const ids = async (query: string) => {
      const { status, body } = await c.api.get<{
        count: number;
        limit: number;
        skip: number;
        paymentMethods: Array<{ paymentMethodId: string }>;
      }>(`/payment_method?${query}`);
      expect(status).toBe(200);
      return { ...body, ids: body.paymentMethods.map((m) => m.paymentMethodId) };
    };
    expect((await ids('')).ids).toEqual([third.paymentMethodId, second.paymentMethodId]);
    expect((await ids('IncludeRemoved=True')).ids).toEqual([third.paymentMethodId, second.paymentMethodId, first.paymentMethodId]);
    expect((await ids(`ProviderId=${c.providerIds[1]}`)).ids).toEqual([second.paymentMethodId]);
    expect((await ids('PaymentType=bank_account')).ids).toEqual([third.paymentMethodId]);
    expect((await ids('CardType=MASTERCARD')).ids).toEqual([second.paymentMethodId]);
    expect((await ids('Search=turing&IncludeRemoved=true')).ids).toEqual([second.paymentMethodId]);
    expect((await ids('Search=ada%20love&IncludeRemoved=true')).ids).toEqual([first.paymentMethodId]);
    expect((await ids(`AddedAfter=${start.toISOString()}&AddedBefore=${new Date(start.getTime() - 1).toISOString()}`)).count).toBe(0);
    expect(await ids('Limit=1&Skip=1&IncludeRemoved=true')).toMatchObject({ limit: 1, skip: 1, count: 3, ids: [second.paymentMethodId] });
  });
});

describe('card data', () => {
  it('is in no table, log line or answer', () =>
    expectNoCardData(t, answers, [VISA, MC, '4000000000000002', '4000000000009995'], [CCV, '482', '468']));
});
