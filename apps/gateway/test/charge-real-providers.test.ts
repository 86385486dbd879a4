import { CURRENCIES, findCurrency, formatAmount } from '@gateway/core';
import { providerType, type ProviderOperation } from '@gateway/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';
import { startRealProviders, type RealProvider, type RealProviders, type RealType } from './real-providers';

/**
 * Card payments through stripe, adyen, checkout and nab_transact providers over REST, against the
 * fake providers (held to the providers' published API descriptions): what the gateway answers, and
 * what the fake received and holds. The gateway reaches the fakes by the operator's
 * GATEWAY_PROVIDER_ENDPOINTS. Amounts have cents NAB's test system approves (00, 08, 11, 16, 77:
 * it answers with the cents as the bank's response code); each charge is in the provider's currency.
 */
let t: TestGateway;
let fakes: RealProviders;

beforeAll(async () => {
  fakes = await startRealProviders();
  t = await startTestGateway({ providerEndpoints: fakes.endpoints });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});

const FEATURE_UNAVAILABLE = 32;
const THREE_D_SECURE_FAILED = 18;
const INSUFFICIENT_FUNDS = 15;
const INVALID_AMOUNT = 2;

/** An Apple Pay token in the simulated acquirer's test format (docs/test-cards.md). */
const APPLE_PAY = {
  paymentData: {
    data: Buffer.from(JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2030 })).toString('base64'),
    signature: 'sig',
    header: { transactionId: 'tx-1', publicKeyHash: 'h', ephemeralPublicKey: 'k' },
    version: 'EC_v1',
  },
  paymentMethod: { displayName: 'Visa 1111', network: 'Visa', type: 'debit' },
};

/** Another currency the type takes than `currency`: USD where it takes it. */
const otherCurrency = (type: RealType, currency: string) =>
  ['USD', ...(providerType(type)?.currencies ?? [])].find((code) => code !== currency && providerType(type)?.currencies.includes(code));

/** Runs every due job (subscription billing, batch chunks) until none is left. */
async function drain() {
  while ((await t.gateway.worker.runDue()) > 0);
}

/** What a type offers, by its registry entry. */
const offers = (type: RealType, operation: ProviderOperation) => providerType(type)?.operations.has(operation) ?? false;
/** A currency the type takes in coarser steps than ISO 4217 (Stripe's KWD, Adyen's IDR), if it has one. */
const coarseCurrency = (type: RealType) =>
  providerType(type)?.currencies.find((code) => providerType(type)?.providerAmount(code, 1n) === undefined);

describe.each<RealType>(['stripe', 'adyen', 'checkout', 'nab_transact'])('a %s provider', (type) => {
  let a: TestAccount;
  let real: RealProvider;
  let providerId: string;
  /** The provider's own currency. */
  let currency: string;

  beforeAll(async () => {
    real = fakes.of(type);
    currency = real.currency;
    a = await createAccount(t, []);
    const created = await a.api.post('/provider', real.provider());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    providerId = String(created.body.providerId);
  });
  afterAll(() => {
    expect(real.violations()).toEqual([]);
  });

  const charge = (fields: Record<string, unknown> = {}) =>
    a.api.post('/charge/card', { amount: 10, currency, providerId, paymentInformation: real.card(), ...fields });

  async function savedCard() {
    const { status, body } = await a.api.post('/payment_method/card', { providerId, paymentInformation: real.card() });
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  }

  /** A monthly subscription of 9 in the provider's currency on a saved card. */
  const subscribe = (paymentMethodId: unknown, fields: Record<string, unknown> = {}) =>
    a.api.post('/subscription/payment_method', { paymentMethodId, amount: 9, currency, interval: 'Month', ...fields });

  it('takes a sale in one payment, captured in full, in the provider’s units', async () => {
    const { status, body } = await charge({ amount: 12.16, reference: 'order-1' });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ status: 'SUCCESS', amount: 12.16, provider: { type } });
    expect(real.payments(String(body.chargeId))).toEqual([expect.objectContaining({ authorised: 1216, captured: 1216, refunded: 0 })]);
  });

  // Checkout.com and NAB count every currency they take as ISO 4217 does: no amount they cannot count.
  it.skipIf(!coarseCurrency(type))(
    'answers 400 for an amount the provider cannot count in its own units, and takes one it can',
    async () => {
      // Stripe counts KWD in fils but only in tens of them; Adyen counts IDR in whole rupiah (ISO 4217: two decimals).
      const [currency, finer, counted, units] = type === 'stripe' ? ['KWD', 1.234, 1.23, 1230] : ['IDR', 10.5, 10, 10];
      const refused = await charge({ amount: finer, currency });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({ code: INVALID_AMOUNT, message: expect.stringContaining('cannot be charged') });
      const { status, body } = await charge({ amount: counted, currency });
      expect(status, JSON.stringify(body)).toBe(201);
      expect(real.payments(String(body.chargeId))).toEqual([expect.objectContaining({ authorised: units, captured: units })]);
    },
  );

  it('authorises only, then captures part of it', async () => {
    const authorised = await charge({ amount: 20, capture: false });
    expect(authorised.body).toMatchObject({ status: 'AUTHORISE' });
    const chargeId = String(authorised.body.chargeId);
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ authorised: 2000, captured: 0 })]);
    const captured = await a.api.post(`/charge/${chargeId}/capture`, { amount: 15 });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body).toMatchObject({ status: 'SUCCESS', amount: 15, authorisationAmount: 20 });
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ authorised: 2000, captured: 1500 })]);
  });

  it('voids an authorisation', async () => {
    const authorised = await charge({ capture: false });
    const chargeId = String(authorised.body.chargeId);
    const voided = await a.api.delete(`/charge/${chargeId}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    expect(real.payments(chargeId)).toEqual([]);
    expect(real.allPayments(chargeId)).toEqual([expect.objectContaining({ cancelled: true })]);
  });

  it('refunds part of a sale, then the rest', async () => {
    const sale = await charge({ amount: 10 });
    const chargeId = String(sale.body.chargeId);
    const partial = await a.api.delete(`/refund/${chargeId}?amount=4`);
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 4 });
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ captured: 1000, refunded: 400 })]);
    const rest = await a.api.delete(`/refund/${chargeId}`);
    expect(rest.body).toMatchObject({ status: 'REFUND', refundedAmount: 10 });
    expect(real.payments(chargeId)).toEqual([]);
  });

  it('answers a decline with the catalogue code, and 3-D Secure required with the 3-D Secure failure code, never the provider’s text', async () => {
    const declined = await charge(real.declining('insufficient_funds'));
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ code: INSUFFICIENT_FUNDS, isRetryable: false });
    // A type without 3-D Secure (NAB) has no card that asks for it.
    const asking = real.declining('three_d_secure');
    const threeDs = asking && (await charge(asking));
    if (threeDs) {
      expect(threeDs.status).toBe(400);
      expect(threeDs.body).toMatchObject({ code: THREE_D_SECURE_FAILED });
    }
    for (const answer of threeDs ? [declined, threeDs] : [declined]) {
      expect(JSON.stringify(answer.body)).not.toMatch(/Not enough balance|Your card has insufficient funds|authentication_required/);
      expect(real.payments(String((answer.body.details as Record<string, string>).chargeId))).toEqual([]);
    }
  });

  it('saves a card at the provider, describes it, charges it again and again, and deletes it there', async () => {
    const method = await savedCard();
    const paymentMethodId = String(method.paymentMethodId);
    expect(method).toMatchObject({
      type: 'CARD',
      providerPaymentMethodId: expect.any(String),
      card: { cardNumber: expect.stringMatching(/\*{6}/) },
    });
    expect(real.storedCards()).toContain(method.providerPaymentMethodId);
    expect((await a.api.get(`/payment_method/${paymentMethodId}`)).body).toMatchObject({ paymentMethodId, type: 'CARD' });

    // A merchant-initiated repeat: no CCV, off session.
    const repeat = await a.api.post('/charge/payment_method', { paymentMethodId, amount: 7, currency, recurring: true });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(201);
    expect(real.payments(String(repeat.body.chargeId))).toEqual([
      expect.objectContaining({ captured: 700, recurring: true, cvcSent: false }),
    ]);

    // Any currency the type takes, not only the provider's own (NAB takes AUD only, unless the operator allows more).
    const other = otherCurrency(type, currency);
    if (other) {
      const paid = await a.api.post('/charge/payment_method', { paymentMethodId, amount: 3, currency: other });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      expect(paid.body).toMatchObject({ currency: other, status: 'SUCCESS' });
    }

    const removed = await a.api.delete(`/payment_method/${paymentMethodId}?gatewayDelete=true`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(real.storedCards()).not.toContain(method.providerPaymentMethodId);
  });

  it('updates a saved card’s expiry where the provider offers it, else answers FeatureUnavailable', async () => {
    const method = await savedCard();
    const updated = await a.api.put(`/payment_method/${String(method.paymentMethodId)}`, { card: { expiryDate: '11/31' } });
    if (offers(type, 'updateStoredCard')) {
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body).toMatchObject({ card: { expiryDate: '11/31' } });
    } else {
      expect(updated.status).toBe(400);
      expect(updated.body).toMatchObject({ code: FEATURE_UNAVAILABLE });
      expect(String(updated.body.message)).toContain(`type ${type}`);
    }
  });

  it('charges a card with its CCV through a payment token', async () => {
    const tokenised = await client(t.url).post(
      '/token/card',
      { providerId, paymentInformation: real.card() },
      { 'x-publickey': a.publicKey },
    );
    expect(tokenised.status, JSON.stringify(tokenised.body)).toBe(200);
    const charged = await a.api.post('/charge/token', { token: tokenised.body.tokenId, amount: 5, currency });
    expect(charged.status, JSON.stringify(charged.body)).toBe(201);
    expect(real.payments(String(charged.body.chargeId))).toEqual([expect.objectContaining({ captured: 500, cvcSent: true })]);
  });

  it('bills a subscription and a batch on saved cards, merchant-initiated', async () => {
    const method = await savedCard();
    const subscribed = await subscribe(method.paymentMethodId);
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    const other = await savedCard();
    const batch = [
      'PaymentMethodId,Amount,Currency,Reference',
      `${String(method.paymentMethodId)},4,${currency},b-1`,
      `${String(other.paymentMethodId)},6,${currency},b-2`,
    ].join('\n');
    const submitted = await a.api.post('/batch/transaction/payment_method', { count: 2, description: 'real', batch });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    await drain();

    const { body } = await a.api.get<{ charges: Array<Record<string, unknown>> }>(
      `/charge?SubscriptionId=${String(subscribed.body.subscriptionId)}`,
    );
    expect(body.charges).toEqual([expect.objectContaining({ status: 'SUCCESS', amount: 9 })]);
    expect(real.payments(String(body.charges[0]?.chargeId))).toEqual([expect.objectContaining({ captured: 900, recurring: true })]);
    const results = await a.api.get(`/batch/${String(submitted.body.batchId)}`);
    expect(results.body).toMatchObject({ status: 'SUCCESS', success: 2, failure: 0 });
    const batchCharges = await a.api.get<{ charges: Array<Record<string, unknown>> }>(`/charge?BatchId=${String(submitted.body.batchId)}`);
    expect(batchCharges.body.charges.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);
    for (const c of batchCharges.body.charges) {
      expect(real.payments(String(c.chargeId))).toEqual([expect.objectContaining({ recurring: true })]);
    }
  });

  it('changes a subscription to a currency the type takes, and refuses at the change one it does not take or an amount it cannot count', async () => {
    const taken = providerType(type)?.currencies ?? [];
    const untaken = [...CURRENCIES.keys()].find((code) => !taken.includes(code));
    // A currency the type takes but in coarser steps than ISO 4217 (Stripe's KWD, Adyen's IDR), if it has one.
    const coarse = taken.map((code) => findCurrency(code)).find((c) => c && providerType(type)?.providerAmount(c.code, 1n) === undefined);
    const method = await savedCard();
    const created = await subscribe(method.paymentMethodId, { startDate: new Date(Date.now() + 30 * 86_400_000).toISOString() });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.subscriptionId);
    // A type that takes every ISO 4217 currency (Checkout.com) has none to refuse.
    if (untaken) {
      const refused = await a.api.put(`/subscription/${id}`, { amount: 9, currency: untaken });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({ code: 29, message: expect.stringContaining(type) });
    }
    if (coarse) {
      const finer = await a.api.put(`/subscription/${id}`, { amount: formatAmount(1n, coarse), currency: coarse.code });
      expect(finer.body).toMatchObject({ code: INVALID_AMOUNT, message: expect.stringContaining('cannot be charged') });
    }
    expect((await a.api.get(`/subscription/${id}`)).body).toMatchObject({ amount: 9, currency });
    // A type that takes one currency (NAB) has none to change to.
    const other = otherCurrency(type, currency);
    if (other) {
      const changed = await a.api.put(`/subscription/${id}`, { amount: 7, currency: other });
      expect(changed.body).toMatchObject({ amount: 7, currency: other, status: 'Active' });
    }
    expect((await a.api.delete(`/subscription/${id}`)).status).toBe(200);
  });

  it.skipIf(!offers(type, 'multiUseToken'))('saves a token the merchant brings from the provider, and charges it', async () => {
    const brought = real.broughtToken()!;
    const path = brought.singleUse ? '/payment_method/provider_single_use_token' : '/payment_method/provider_token';
    const saved = await a.api.post(path, {
      providerId,
      providerToken: brought.providerToken,
      providerTokenData: brought.providerTokenData,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body).toMatchObject({ type: 'CARD', card: { cardNumber: expect.stringMatching(/\*{6}/) } });
    const charged = await a.api.post('/charge/payment_method', { paymentMethodId: saved.body.paymentMethodId, amount: 2, currency });
    expect(charged.status, JSON.stringify(charged.body)).toBe(201);
    expect(real.payments(String(charged.body.chargeId))).toEqual([expect.objectContaining({ captured: 200 })]);
  });

  it('answers FeatureUnavailable naming the type for what it does not offer, never a 500 or a success', async () => {
    const storedBefore = real.storedCards().length;
    const refusals = [
      await a.api.post('/charge/bank_account', {
        amount: 5,
        currency,
        providerId,
        bankPaymentInformation: { bankCode: '062000', accountNumber: '12345678', accountName: 'Pat Payer' },
      }),
      await a.api.post('/payment_method/payto', {
        providerId,
        payerName: 'Pat Payer',
        payerPayIdDetails: { payId: 'pat@example.com', payIdType: 'EMAIL' },
        description: 'Gym',
        maximumAmount: 100,
      }),
      await a.api.post('/payment_method/card', { providerId, paymentInformation: real.card(), createNetworkToken: true }),
      await client(t.url).post('/charge/token/apple', { token: APPLE_PAY, amount: 5 }, { 'x-publickey': a.publicKey, providerId }),
      ...(type === 'adyen'
        ? [await a.api.post('/payment_method/provider_single_use_token', { providerId, providerToken: 'tok_visa' })]
        : []),
      ...(type === 'stripe'
        ? [await a.api.post('/payment_method/card', { providerId, paymentInformation: real.card(), verify: true })]
        : []),
      ...(!offers(type, 'multiUseToken')
        ? [await a.api.post('/payment_method/provider_token', { providerId, providerToken: 'brought-elsewhere' })]
        : []),
    ];
    for (const refused of refusals) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.code, JSON.stringify(refused.body)).toBe(FEATURE_UNAVAILABLE);
      expect(String(refused.body.message)).toContain(`type ${type}`);
    }
    // The card stored for the network token was deleted again when the token was refused.
    expect(real.storedCards()).toHaveLength(storedBefore);
  });

  // NAB's XML API takes card numbers from every merchant: there is no such refusal to say.
  it.skipIf(type === 'nab_transact')('says so when the provider account refuses raw card numbers', async () => {
    real.setRawCardsAllowed!(false);
    try {
      const refused = await charge();
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({ code: FEATURE_UNAVAILABLE });
      expect(String(refused.body.message)).toMatch(/raw card numbers/);
    } finally {
      real.setRawCardsAllowed!(true);
    }
  });
});

describe('least-cost routing and fail-over across provider types', () => {
  const fees = (transactionCost: string, transactionPercentage: string) => [{ transactionCost, transactionPercentage }];
  const SIMULATED = { type: 'dummy', name: 'Simulated', currency: 'EUR', latency: { minMs: 0, maxMs: 0 }, fees: fees('0.20', '2') };
  // The Adyen test card, which the fake Stripe and the simulated acquirer approve too.
  const paymentInformation = () => fakes.of('adyen').card();

  async function mixedAccount() {
    const a = await createAccount(t, [
      fakes.of('adyen').newProvider({ timeoutMs: 1_500, fees: fees('0.05', '1') }),
      fakes.of('stripe').newProvider({ fees: fees('0.10', '1.5') }),
      SIMULATED,
    ]);
    const [adyenId, stripeId, dummyId] = a.providerIds;
    return { a, adyenId, stripeId, dummyId };
  }

  it('sends a charge to the cheapest provider, whatever its type', async () => {
    const { a, adyenId } = await mixedAccount();
    const { status, body } = await a.api.post('/charge/card/least_cost', {
      amount: 100,
      currency: 'EUR',
      paymentInformation: paymentInformation(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    // 1 % + 0.05 at Adyen, against 1.5 % + 0.10 at Stripe and 2 % + 0.20 at the simulated acquirer.
    expect(body).toMatchObject({ providerId: adyenId, estimatedCost: 1.05, status: 'SUCCESS', failedAttempts: [] });
    expect(fakes.of('adyen').payments(String(body.chargeId))).toHaveLength(1);
  });

  it('moves on from a timed-out adyen and a rate-limited stripe, each reversed, to the simulated acquirer: one payment in all', async () => {
    const { a, adyenId, stripeId, dummyId } = await mixedAccount();
    fakes.of('adyen').hangNext('payment');
    // Stripe keeps no answer for a rate-limited call: the reversal's replay makes the payment, then cancels it.
    fakes.stripe.failNext(
      { method: 'POST', path: '/v1/payment_intents' },
      { status: 429, type: 'invalid_request_error', code: 'rate_limit' },
    );
    const { status, body } = await a.api.post('/charge/card/least_cost', {
      amount: 30,
      currency: 'EUR',
      paymentInformation: paymentInformation(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body).toMatchObject({ providerId: dummyId, status: 'SUCCESS', provider: { type: 'dummy' } });
    expect(body.failedAttempts).toMatchObject([
      { providerId: adyenId, isRetryable: true },
      { providerId: stripeId, isRetryable: true },
    ]);
    const chargeId = String(body.chargeId);
    // Adyen made the payment it never answered: the gateway reversed it before moving on.
    expect(fakes.of('adyen').allPayments(chargeId)).toHaveLength(1);
    expect(fakes.of('adyen').payments(chargeId)).toEqual([]);
    expect(fakes.of('stripe').payments(chargeId)).toEqual([]);
  });

  it('routes to, and fails over from, each real type the fakes serve (a type joins by joining startRealProviders)', async () => {
    const types = Object.keys(fakes.endpoints) as RealType[];
    expect(types).toEqual(expect.arrayContaining(['stripe', 'adyen']));
    for (const type of types) {
      const real = fakes.of(type);
      const currency = real.newProvider().currency ?? 'EUR';
      const a = await createAccount(t, [real.newProvider({ timeoutMs: 1_500, fees: fees('0.05', '1') }), { ...SIMULATED, currency }]);
      const [realId, dummyId] = a.providerIds;
      const leastCost = (amount: number) => a.api.post('/charge/card/least_cost', { amount, currency, paymentInformation: real.card() });
      const cheapest = await leastCost(100);
      expect(cheapest.body, type).toMatchObject({ providerId: realId, status: 'SUCCESS', provider: { type }, estimatedCost: 1.05 });
      expect(real.payments(String(cheapest.body.chargeId)), type).toHaveLength(1);

      real.hangNext('payment');
      const failedOver = await leastCost(30);
      if (providerType(type)?.noIdempotency) {
        // A type that cannot take a call twice (NAB) can neither tell nor undo a payment it never
        // answered (no transaction id): the charge is held for staff, and never moves on.
        expect(failedOver.body, type).toMatchObject({ code: 80, gatewayCode: 'OUTCOME_UNKNOWN', isRetryable: false });
        const chargeId = String((failedOver.body.details as Record<string, string>).chargeId);
        expect((await a.api.get(`/charge/${chargeId}`)).body, type).toMatchObject({ status: 'PENDING', providerId: realId });
        expect(real.payments(chargeId), type).toHaveLength(1);
        // A definite refusal it says may pass later (91: the issuer unavailable) moves on: nothing to undo.
        const movedOn = await leastCost(30.91);
        expect(movedOn.body, type).toMatchObject({
          providerId: dummyId,
          status: 'SUCCESS',
          failedAttempts: [{ providerId: realId, gatewayCode: '91', isRetryable: true }],
        });
        expect(real.allPayments(String(movedOn.body.chargeId)), type).toEqual([]);
        continue;
      }
      expect(failedOver.body, type).toMatchObject({
        providerId: dummyId,
        status: 'SUCCESS',
        failedAttempts: [{ providerId: realId, isRetryable: true }],
      });
      // The payment it never answered was reversed before the charge moved on.
      expect(real.payments(String(failedOver.body.chargeId)), type).toEqual([]);
    }
  });

  it('does not move on after a decline', async () => {
    const { a, adyenId } = await mixedAccount();
    const declined = fakes.of('adyen').declining('insufficient_funds')!.paymentInformation;
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 30, currency: 'EUR', paymentInformation: declined });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: INSUFFICIENT_FUNDS, isRetryable: false });
    const chargeId = String((body.details as Record<string, string>).chargeId);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'FAILED', providerId: adyenId });
    expect(fakes.of('stripe').allPayments(chargeId)).toEqual([]);
  });
});
