import { parseExchangeRates } from '@gateway/core';
import type { NewProvider } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, client, createAccount, moneyAtAcquirer, startTestGateway, VISA_AU, type TestAccount, type TestGateway } from './harness';

/**
 * Any currency on any provider (docs/decisions.md#currencies): a provider in AUD takes USD on every
 * path, and says what a charge costs in the charge currency, from its USD fee lines or from its AUD
 * ones converted at the operator's rate. The operator here sets USD:AUD=1.5234 (1 USD = 1.5234
 * AUD), which also serves AUD→USD by division; there is no rate for EUR.
 */
let t: TestGateway;
let a: TestAccount;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const quick = { type: 'dummy', currency: 'AUD', country: 'AUS', latency: { minMs: 0, maxMs: 0 }, timeoutMs: 5_000 } as const;
/** Fees in AUD only: 1 % + 0.10 AUD for domestic cards. */
const AUD_FEES: NewProvider = {
  ...quick,
  name: 'AUD fees',
  fees: [{ isInternationalCard: false, transactionCost: '0.10', transactionPercentage: '1' }],
};
/** Fees in AUD, and a line of its own for USD: 1.2 % + 0.05 USD. */
const USD_LINE: NewProvider = {
  ...quick,
  name: 'USD line',
  fees: [
    { transactionCost: '0.20', transactionPercentage: '2' },
    { currency: 'USD', transactionCost: '0.05', transactionPercentage: '1.2' },
  ],
};

beforeAll(async () => {
  t = await startTestGateway({ clock, exchangeRates: parseExchangeRates('USD:AUD=1.5234') });
  a = await createAccount(t, [AUD_FEES, USD_LINE]);
});
afterAll(() => t.close());

const audFees = () => a.providerIds[0] ?? '';
const usdLine = () => a.providerIds[1] ?? '';

const atAcquirer = (chargeId: unknown, attempt?: number) => moneyAtAcquirer(t, chargeId, attempt);

/** The providers a failed charge tried, in order (its id is in the error's details). */
async function attemptedAt(account: TestAccount, error: Record<string, unknown>) {
  const chargeId = (error.details as { chargeId: string }).chargeId;
  const { body } = await account.api.get<{ currency: string; failedAttempts: Array<{ providerId: string }> }>(`/charge/${chargeId}`);
  return body.failedAttempts.map((attempt) => attempt.providerId);
}

async function savedCard(providerId: string, number = VISA_AU, extra: Record<string, unknown> = {}) {
  const { status, body } = await a.api.post('/payment_method/card', { providerId, paymentInformation: card(number), ...extra });
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

/** A card charge with a domestic Visa, at the AUD-fees provider unless `fields` name another. */
const chargeCard = (fields: Record<string, unknown>) =>
  a.api.post('/charge/card', { providerId: audFees(), paymentInformation: card(VISA_AU), ...fields });

describe('a USD charge on an AUD provider', () => {
  it('goes through with the card, in USD at the acquirer, its AUD fixed fee converted at the rate', async () => {
    const { status, body } = await chargeCard({ amount: 100, currency: 'usd' });
    expect(status, JSON.stringify(body)).toBe(201);
    // 1 % of 100 USD, plus 0.10 AUD / 1.5234 = 0.0656… USD, rounded half up to 0.07.
    expect(body).toMatchObject({ status: 'SUCCESS', amount: 100, currency: 'USD', estimatedCost: 1.07, estimatedCostCurrency: 'USD' });
    expect(await atAcquirer(body.chargeId)).toEqual([{ amount: '10000', currency: 'USD' }]);
    const stored = await t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: String(body.chargeId) } });
    expect(stored).toMatchObject({ currency: 'USD', amount: 10000n, estimatedCost: 107n, estimatedCostCurrency: 'USD' });

    // Captures and refunds follow the charge's currency.
    expect((await a.api.delete(`/charge/${String(body.chargeId)}?amount=0.01`)).body).toMatchObject({
      status: 'PARTIAL_REFUND',
      refundedAmount: 0.01,
      currency: 'USD',
    });
  });

  it('is priced by the USD fee line when the schedule has one', async () => {
    const { body } = await chargeCard({ amount: 100, currency: 'USD', providerId: usdLine() });
    expect(body).toMatchObject({ status: 'SUCCESS', estimatedCost: 1.25, estimatedCostCurrency: 'USD' });
    // Its AUD charges keep the AUD lines: 2 % + 0.20.
    const aud = await chargeCard({ amount: 100, providerId: usdLine() });
    expect(aud.body).toMatchObject({ currency: 'AUD', estimatedCost: 2.2, estimatedCostCurrency: 'AUD' });
  });

  it('goes to the cheapest provider in USD by least cost, and as a least-cost token', async () => {
    const { body } = await a.api.post('/charge/card/least_cost', { amount: 100, currency: 'USD', paymentInformation: card(VISA_AU) });
    expect(body).toMatchObject({ status: 'SUCCESS', providerId: audFees(), estimatedCost: 1.07, estimatedCostCurrency: 'USD' });
    // 1 % + 0.07 = 10.07 USD against 1.2 % + 0.05 = 12.05 USD.
    const token = await client(t.url).post(
      '/token/card/least_cost',
      { amount: 1000, currency: 'USD', paymentInformation: card(VISA_AU) },
      { 'x-publickey': a.publicKey },
    );
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body).toMatchObject({ provider: { providerId: audFees() } });
  });

  it('fails over between providers in USD', async () => {
    const { status, body } = await a.api.post('/charge/card/least_cost', {
      amount: 10,
      currency: 'USD',
      paymentInformation: card('4000000000000119'),
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 34 });
    expect(await attemptedAt(a, body)).toEqual([usdLine(), audFees()]);
  });

  it('goes through with a token, a payment method, a customer and a network token', async () => {
    const tokenised = await client(t.url).post(
      '/token/card',
      { providerId: audFees(), paymentInformation: card(VISA_AU) },
      { 'x-publickey': a.publicKey },
    );
    const byToken = await a.api.post('/charge/token', { token: tokenised.body.tokenId, amount: 20, currency: 'USD' });
    expect(byToken.body).toMatchObject({ status: 'SUCCESS', currency: 'USD', estimatedCost: 0.27, estimatedCostCurrency: 'USD' });
    expect(await atAcquirer(byToken.body.chargeId)).toEqual([{ amount: '2000', currency: 'USD' }]);

    const method = await savedCard(audFees(), VISA_AU, { createNetworkToken: true });
    const byMethod = await a.api.post('/charge/payment_method', { paymentMethodId: method.paymentMethodId, amount: 30, currency: 'USD' });
    expect(byMethod.body).toMatchObject({ status: 'SUCCESS', currency: 'USD', estimatedCost: 0.37 });
    expect(await atAcquirer(byMethod.body.chargeId)).toEqual([{ amount: '3000', currency: 'USD' }]);

    const customer = await a.api.post('/customer/card', { providerId: usdLine(), paymentInformation: card(VISA_AU) });
    const byCustomer = await a.api.post('/charge/customer', { customerId: customer.body.customerId, amount: 40, currency: 'USD' });
    expect(byCustomer.body).toMatchObject({ status: 'SUCCESS', currency: 'USD', providerId: usdLine(), estimatedCost: 0.53 });

    const byNetworkToken = await a.api.post('/charge/network_token', {
      networkTokenId: method.networkTokenId,
      providerId: audFees(),
      amount: 50,
      currency: 'USD',
    });
    expect(byNetworkToken.body).toMatchObject({ status: 'SUCCESS', currency: 'USD', estimatedCost: 0.57 });
    expect(await atAcquirer(byNetworkToken.body.chargeId)).toEqual([{ amount: '5000', currency: 'USD' }]);
  });

  it("falls back to the fallback payment method's provider, priced there in USD", async () => {
    const fallback = await savedCard(usdLine());
    const failing = await savedCard(audFees(), '4000000000000119', { fallbackPaymentMethodId: fallback.paymentMethodId });
    const { status, body } = await a.api.post('/charge/payment_method', {
      paymentMethodId: failing.paymentMethodId,
      amount: 10,
      currency: 'USD',
    });
    expect(status, JSON.stringify(body)).toBe(201);
    // 1.2 % of 10 USD + 0.05.
    expect(body).toMatchObject({
      status: 'SUCCESS',
      currency: 'USD',
      providerId: usdLine(),
      estimatedCost: 0.17,
      estimatedCostCurrency: 'USD',
    });
    expect(body.failedAttempts).toMatchObject([{ providerId: audFees() }]);
    expect(await atAcquirer(body.chargeId, 2)).toEqual([{ amount: '1000', currency: 'USD' }]);
  });

  it('goes through with Apple Pay and as a bank-account debit', async () => {
    const applePay = {
      paymentData: {
        data: Buffer.from(JSON.stringify({ cardNumber: VISA_AU, expiryMonth: 12, expiryYear: 2030 })).toString('base64'),
        signature: 'sig',
        header: { transactionId: 'tx-usd', publicKeyHash: 'h', ephemeralPublicKey: 'k' },
        version: 'EC_v1',
      },
      paymentMethod: { displayName: 'Visa 4242', network: 'Visa', type: 'debit' },
    };
    const wallet = await client(t.url).post(
      '/charge/token/apple',
      { token: applePay, amount: 12.5, currency: 'USD' },
      { 'x-publickey': a.publicKey, providerId: usdLine() },
    );
    expect(wallet.body).toMatchObject({ status: 'SUCCESS', currency: 'USD', amount: 12.5, providerId: usdLine() });
    expect(await atAcquirer(wallet.body.chargeId)).toEqual([{ amount: '1250', currency: 'USD' }]);

    const debit = await a.api.post('/charge/bank_account', {
      amount: 25,
      currency: 'USD',
      providerId: audFees(),
      bankPaymentInformation: { bankCode: '062-000', accountNumber: '12345678', accountName: 'Ann Payer' },
    });
    expect(debit.body).toMatchObject({ status: 'PENDING', currency: 'USD', amount: 25 });
    offsetMs += 60_000;
    for (let round = 0; round < 5 && (await t.gateway.worker.runDue()) > 0; round += 1);
    expect((await a.api.get(`/charge/${String(debit.body.chargeId)}`)).body).toMatchObject({ status: 'SUCCESS', currency: 'USD' });
  });

  it('is refused for a PayTo agreement made in AUD, before anything is written or sent, for a subscription too', async () => {
    const agreement = await a.api.post('/payment_method/payto', {
      providerId: audFees(),
      payerName: 'Pat Payer',
      payerPayIdDetails: { payId: 'pat@example.com', payIdType: 'EMAIL' },
      description: 'Rent',
      maximumAmount: 500,
    });
    expect(agreement.status, JSON.stringify(agreement.body)).toBe(201);
    const before = await t.gateway.database.prisma.charge.count();
    const refused = await a.api.post('/charge/payment_method', {
      paymentMethodId: agreement.body.paymentMethodId,
      amount: 5,
      currency: 'USD',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 29, message: expect.stringContaining('The PayTo agreement is in AUD') });
    expect(await t.gateway.database.prisma.charge.count()).toBe(before);
    const inAud = await a.api.post('/charge/payment_method', { paymentMethodId: agreement.body.paymentMethodId, amount: 5 });
    expect(inAud.body).toMatchObject({ status: 'PENDING', currency: 'AUD' });

    // A subscription on it too: refused in USD when made or changed, not at its first payment.
    const paymentMethodId = agreement.body.paymentMethodId;
    const later = new Date(clock.now().getTime() + 86_400_000).toISOString();
    const inUsd = await a.api.post('/subscription/payment_method', { paymentMethodId, amount: 5, currency: 'USD', startDate: later });
    expect(inUsd.body).toMatchObject({ code: 29, message: expect.stringContaining('The PayTo agreement is in AUD') });
    const subscribed = await a.api.post('/subscription/payment_method', { paymentMethodId, amount: 5, startDate: later });
    expect(subscribed.body).toMatchObject({ currency: 'AUD', status: 'Active' });
    const id = String(subscribed.body.subscriptionId);
    const changed = await a.api.put(`/subscription/${id}`, { amount: 5, currency: 'USD' });
    expect(changed.body).toMatchObject({ code: 29, message: expect.stringContaining('The PayTo agreement is in AUD') });
    expect((await a.api.delete(`/subscription/${id}`)).body).toMatchObject({ currency: 'AUD', status: 'Cancelled' });
  });

  it('bills a subscription in its own currency, and in a new one from the payment after the change', async () => {
    const method = await savedCard(audFees());
    const created = await a.api.post('/subscription/payment_method', {
      paymentMethodId: method.paymentMethodId,
      amount: 9.99,
      currency: 'USD',
      interval: 'Month',
      startDate: new Date(clock.now().getTime() + 3_600_000).toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ currency: 'USD', amount: 9.99 });
    const id = String(created.body.subscriptionId);
    // A new payment method must take the subscription's currency.
    const other = await savedCard(usdLine());
    expect((await a.api.put(`/subscription/${id}`, { paymentMethodId: other.paymentMethodId, amount: 12 })).status).toBe(200);
    offsetMs += 2 * 3_600_000;
    await t.gateway.worker.runDue();
    const charges = async () =>
      (await a.api.get<{ charges: Array<Record<string, unknown>> }>(`/charge?SubscriptionId=${id}`)).body.charges.reverse();
    expect(await charges()).toMatchObject([{ status: 'SUCCESS', amount: 12, currency: 'USD', providerId: usdLine(), estimatedCost: 0.19 }]);

    // A new currency comes with an amount in it; the next payment is in it, priced by the AUD lines.
    expect((await a.api.put(`/subscription/${id}`, { currency: 'AUD' })).body).toMatchObject({
      code: 90,
      details: { amount: expect.any(String) },
    });
    const changed = await a.api.put(`/subscription/${id}`, { Currency: 'aud', Amount: 15 });
    expect(changed.body).toMatchObject({ currency: 'AUD', amount: 15, status: 'Active' });
    offsetMs += 31 * 24 * 3_600_000;
    await t.gateway.worker.runDue();
    const [usd, aud] = await charges();
    expect(aud).toMatchObject({
      status: 'SUCCESS',
      amount: 15,
      currency: 'AUD',
      providerId: usdLine(),
      estimatedCost: 0.5,
      estimatedCostCurrency: 'AUD',
    });
    expect(await atAcquirer(usd?.chargeId)).toEqual([{ amount: '1200', currency: 'USD' }]);
    expect(await atAcquirer(aud?.chargeId)).toEqual([{ amount: '1500', currency: 'AUD' }]);
    expect((await a.api.delete(`/subscription/${id}`)).status).toBe(200);
  });

  it('is what a payment link in USD charges', async () => {
    const link = await a.api.post('/payment_link', { title: 'Ticket', amount: 12.34, currency: 'USD' });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const browser = client(t.url);
    const headers = { 'x-publickey': a.publicKey };
    const token = await browser.post('/token/card', { paymentInformation: card(VISA_AU) }, headers);
    const paid = await browser.post(`/payment_link/${String(link.body.paymentLinkId)}/pay`, { token: token.body.tokenId }, headers);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'SUCCESS', amount: 12.34, currency: 'USD' });
    expect(await atAcquirer(paid.body.chargeId)).toEqual([{ amount: '1234', currency: 'USD' }]);
  });
});

describe('a currency with neither a fee line nor a rate (EUR here)', () => {
  it('has no estimated cost on the provider named', async () => {
    const { body } = await chargeCard({ amount: 10, currency: 'EUR' });
    expect(body).toMatchObject({ status: 'SUCCESS', currency: 'EUR', estimatedCost: null, estimatedCostCurrency: null });
  });

  it('leaves the provider out of least-cost routing, even for fail-over; a provider with no schedule at all ranks last', async () => {
    const b = await createAccount(t, [AUD_FEES, { ...quick, name: 'No schedule' }]);
    const [priced, unscheduled] = b.providerIds;
    const { body } = await b.api.post('/charge/card/least_cost', { amount: 10, currency: 'EUR', paymentInformation: card(VISA_AU) });
    expect(body).toMatchObject({ status: 'SUCCESS', providerId: unscheduled, estimatedCost: null });
    // A retryable failure would fail over to another candidate: there is none.
    const failed = await b.api.post('/charge/card/least_cost', {
      amount: 10,
      currency: 'EUR',
      paymentInformation: card('4000000000000119'),
    });
    expect(failed.status).toBe(400);
    expect(await attemptedAt(b, failed.body)).toEqual([unscheduled]);
    // In USD its AUD fees convert: it is a candidate again, before the one with no schedule.
    const usd = await b.api.post('/charge/card/least_cost', { amount: 10, currency: 'USD', paymentInformation: card('4000000000000119') });
    expect(usd.status).toBe(400);
    expect(await attemptedAt(b, usd.body)).toEqual([priced, unscheduled]);
  });
});

describe('currencies refused', () => {
  it('refuses a code that is no ISO 4217 currency (29) on every kind of charge, before anything is written', async () => {
    const before = await t.gateway.database.prisma.charge.count();
    for (const [path, body] of [
      ['/charge/card', { amount: 1, currency: 'XYZ', providerId: audFees(), paymentInformation: card(VISA_AU) }],
      ['/charge/card/least_cost', { amount: 1, currency: 'XYZ', paymentInformation: card(VISA_AU) }],
      [
        '/charge/bank_account',
        {
          amount: 1,
          currency: 'XYZ',
          providerId: audFees(),
          bankPaymentInformation: { bankCode: '062-000', accountNumber: '1', accountName: 'A' },
        },
      ],
    ] as const) {
      const refused = await a.api.post(path, body);
      expect(refused.status, path).toBe(400);
      expect(refused.body.code, path).toBe(29);
    }
    expect(await t.gateway.database.prisma.charge.count()).toBe(before);
  });

  it('checks each amount against its currency: no cents in JPY', async () => {
    const { status, body } = await chargeCard({ amount: 10.5, currency: 'JPY' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 2, details: { amount: 'At most 0 decimal places' } });
    const yen = await chargeCard({ amount: 1050, currency: 'JPY' });
    // No JPY line, and no rate to carry the 0.10 AUD fixed fee into yen: no known cost.
    expect(yen.body).toMatchObject({ status: 'SUCCESS', currency: 'JPY', amount: 1050, estimatedCost: null });
  });
});
