import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  card,
  CHEAP_DOMESTIC,
  CHEAP_INTERNATIONAL,
  client,
  createAccount,
  expectNoCardData,
  recording,
  startTestGateway,
  VISA,
  type TestAccount,
  type TestGateway,
} from './harness';

/** Charges on details the gateway or the acquirer keeps: tokens, payment methods, customers, network tokens. */
let t: TestGateway;
let a: TestAccount;
const answers: string[] = [];
const CCV = '9462';

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t, [
    { ...CHEAP_DOMESTIC, timeoutMs: 5_000 },
    { ...CHEAP_INTERNATIONAL, timeoutMs: 5_000 },
  ]);
  a.api = recording(a.api, answers);
});
afterAll(() => t.close());

async function savedCard(number = VISA, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { status, body } = await a.api.post('/payment_method/card', {
    providerId: a.providerIds[0],
    paymentInformation: card(number, { ccv: CCV }),
    ...extra,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

describe('POST /charge/token', () => {
  it('charges the card behind a token once; a second use is refused with 51', async () => {
    const tokenised = await recording(client(t.url), answers).post(
      '/token/card',
      { providerId: a.providerIds[0], paymentInformation: card(VISA, { ccv: CCV }) },
      { 'x-publickey': a.publicKey },
    );
    const token = String(tokenised.body.tokenId);
    // A client's mistake is refused without using the token up.
    for (const [mistake, code] of [
      [{ Currency: 'XYZ' }, 29],
      [{ Amount: 42.001 }, 2],
    ] as const) {
      const refused = await a.api.post('/charge/token', { Token: token, Amount: 42, ...mistake });
      expect(refused.body.code).toBe(code);
    }
    const { status, body } = await a.api.post('/charge/token', { Token: token, Amount: 42, Reference: 'token-charge' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      amount: 42,
      paymentTokenId: token,
      paymentInformation: { card: { cardNumber: '411111******1111' } },
    });
    const again = await a.api.post('/charge/token', { token, amount: 42 });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(51);
    expect((await a.api.get(`/token/${token}`)).body.dateUsed).not.toBeNull();
  });
});

describe('POST /charge/payment_method and /charge/customer', () => {
  it('charges a saved card, recurring, and links the charge to the method', async () => {
    const method = await savedCard();
    const { status, body } = await a.api.post('/charge/payment_method', {
      paymentMethodId: method.paymentMethodId,
      amount: 19.99,
      recurring: true,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      amount: 19.99,
      paymentInformation: { paymentMethodId: method.paymentMethodId, card: { cardNumber: '411111******1111' } },
    });
    const found = await a.api.get(`/charge?PaymentMethodId=${String(method.paymentMethodId)}`);
    expect(found.body.count).toBe(1);
  });

  it('falls back to the fallback payment method after a retryable failure, recording the first attempt', async () => {
    const fallback = await savedCard('5555555555554444', { providerId: a.providerIds[1] });
    const failing = await savedCard('4000000000000119', { fallbackPaymentMethodId: fallback.paymentMethodId });
    const { status, body } = await a.api.post('/charge/payment_method', { paymentMethodId: failing.paymentMethodId, amount: 10 });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      providerId: a.providerIds[1],
      paymentInformation: { paymentMethodId: fallback.paymentMethodId, card: { cardNumber: '555555******4444' } },
    });
    expect(body.failedAttempts).toMatchObject([{ providerId: a.providerIds[0], errorCode: '34', isRetryable: true }]);
  });

  it('does not fall back after a hard decline', async () => {
    const fallback = await savedCard();
    const declining = await savedCard('4000000000009995', { fallbackPaymentMethodId: fallback.paymentMethodId });
    const { status, body } = await a.api.post('/charge/payment_method', { paymentMethodId: declining.paymentMethodId, amount: 10 });
    expect(status).toBe(400);
    expect(body.code).toBe(15);
  });

  it("charges a customer's default method, and explains a customer that cannot be charged", async () => {
    const created = await a.api.post('/customer/card', {
      providerId: a.providerIds[0],
      firstName: 'Cas',
      email: 'cas@example.com',
      paymentInformation: card(VISA, { ccv: CCV }),
    });
    const customerId = String(created.body.customerId);
    const { status, body } = await a.api.post('/charge/customer', { CustomerId: customerId, Amount: 30 });
    expect(status).toBe(201);
    expect(body).toMatchObject({ customerId, customer: { customerId, firstName: 'Cas', email: 'cas@example.com' }, status: 'SUCCESS' });
    expect((await a.api.get(`/charge?CustomerId=${customerId}`)).body.count).toBe(1);

    await a.api.delete(`/customer/${customerId}`);
    expect((await a.api.post('/charge/customer', { customerId, amount: 30 })).body.code).toBe(72);
    expect((await a.api.post('/charge/customer', { customerId: 'nope', amount: 30 })).status).toBe(404);
    const removedMethod = await savedCard();
    await a.api.delete(`/payment_method/${String(removedMethod.paymentMethodId)}`);
    expect((await a.api.post('/charge/payment_method', { paymentMethodId: removedMethod.paymentMethodId, amount: 1 })).body.code).toBe(73);
  });

  it("erases a vaulted card's CCV at its first payment", async () => {
    const method = await savedCard(VISA, { vaultCard: true });
    const vaultId = String(method.vaultId);
    expect((await a.api.get(`/vault/${vaultId}`)).body.hasCvv).toBe(true);
    await a.api.post('/charge/payment_method', { paymentMethodId: method.paymentMethodId, amount: 5 });
    expect((await a.api.get(`/vault/${vaultId}`)).body.hasCvv).toBe(false);
  });

  it("refuses another account's payment method, customer or network token as unknown, and charges nothing", async () => {
    const other = await createAccount(t, undefined, { throughCommand: true });
    const method = await savedCard(VISA, { vaultCard: true, createNetworkToken: true });
    const customer = await a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(VISA) });
    const before = (await a.api.get('/charge?limit=1')).body.count;
    const attempts = [
      ['/charge/payment_method', { paymentMethodId: method.paymentMethodId, amount: 1 }, 56],
      ['/charge/customer', { customerId: customer.body.customerId, amount: 1 }, 52],
      ['/charge/network_token', { networkTokenId: method.networkTokenId, providerId: other.providerIds[0], amount: 1 }, undefined],
      ['/payment_method/vault', { providerId: other.providerIds[0], paymentMethodId: method.paymentMethodId }, 56],
    ] as const;
    for (const [path, body, code] of attempts) {
      const refused = await other.api.post(path, body);
      expect(refused.status, path).toBe(404);
      if (code !== undefined) expect(refused.body.code, path).toBe(code);
    }
    expect((await a.api.get('/charge?limit=1')).body.count).toBe(before);
    expect((await other.api.get('/charge?limit=1')).body.count).toBe(0);
  });
});

describe('POST /charge/network_token', () => {
  it("charges a payment method's network token", async () => {
    const method = await savedCard(VISA, { createNetworkToken: true });
    const { status, body } = await a.api.post('/charge/network_token', {
      NetworkTokenId: method.networkTokenId,
      ProviderId: a.providerIds[0],
      Amount: 8,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ status: 'SUCCESS', amount: 8, paymentInformation: { paymentMethodId: method.paymentMethodId } });
    const unknown = await a.api.post('/charge/network_token', { networkTokenId: 'ntok_nope', providerId: a.providerIds[0], amount: 8 });
    expect(unknown.status).toBe(404);
  });
});

describe('card data', () => {
  it('is nowhere in clear after all of it', async () => {
    await expectNoCardData(t, answers, [VISA, '5555555555554444', '4000000000000119', '4000000000009995'], [CCV]);
  });
});
