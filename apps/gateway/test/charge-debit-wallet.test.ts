import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, CHEAP_DOMESTIC, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** Charges that settle later (bank accounts) and device-wallet (Apple Pay) charges. */
let t: TestGateway;
let a: TestAccount;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  t = await startTestGateway({ clock });
  a = await createAccount(t, [{ ...CHEAP_DOMESTIC, timeoutMs: 5_000 }]);
});
afterAll(() => t.close());

/** Moves the clock past the settlement delay and runs what has become due. */
async function settle() {
  offsetMs += 60_000;
  for (let round = 0; round < 5 && (await t.gateway.worker.runDue()) > 0; round += 1);
}

const bank = (accountNumber: string) => ({ bankCode: '062-000', accountNumber, accountName: 'Ann Payer' });

describe('POST /charge/bank_account', () => {
  it('is PENDING at once and SUCCESS once the bank settles; then it can be refunded', async () => {
    const { status, body } = await a.api.post('/charge/bank_account', {
      Amount: 25,
      ProviderId: a.providerIds[0],
      Reference: 'rent',
      BankPaymentInformation: bank('12345678'),
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'PENDING',
      amount: 25,
      successDate: null,
      paymentInformation: {
        type: 'BANK_ACCOUNT',
        card: null,
        bankPayment: { bankCode: '062-000', accountNumber: '12345678', accountName: 'Ann Payer' },
      },
    });
    const id = String(body.chargeId);
    expect((await a.api.get(`/charge?Status=PENDING`)).body.count).toBeGreaterThan(0);

    await settle();
    const settled = await a.api.get(`/charge/${id}`);
    expect(settled.body).toMatchObject({ status: 'SUCCESS', amount: 25 });
    expect(settled.body.successDate).not.toBeNull();
    expect((await a.api.delete(`/charge/${id}?amount=5`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 5 });
  });

  it('fails when the bank refuses the debit, with the reason', async () => {
    const { body } = await a.api.post('/charge/bank_account', {
      amount: 25,
      providerId: a.providerIds[0],
      bankPaymentInformation: bank('11110000'),
    });
    expect(body.status).toBe('PENDING');
    await settle();
    const failed = await a.api.get(`/charge/${String(body.chargeId)}`);
    expect(failed.body.status).toBe('FAILED');
    expect(failed.body.failedAttempts).toMatchObject([{ errorCode: '15', gatewayCode: '51' }]);
  });

  it('refuses a capture or void of a debit, and bad bank details', async () => {
    const { body } = await a.api.post('/charge/bank_account', {
      amount: 5,
      providerId: a.providerIds[0],
      bankPaymentInformation: bank('22223333'),
    });
    expect((await a.api.post(`/charge/${String(body.chargeId)}/capture`, {})).body.code).toBe(54);
    const bad = await a.api.post('/charge/bank_account', {
      amount: 5,
      providerId: a.providerIds[0],
      bankPaymentInformation: { bankCode: '062' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(90);
  });
});

describe('POST /charge/token/apple', () => {
  const applePay = (cardNumber: string) => ({
    paymentData: {
      data: Buffer.from(JSON.stringify({ cardNumber, expiryMonth: 12, expiryYear: 2030, cardholder: 'Wallet Payer' })).toString('base64'),
      signature: 'sig',
      header: { transactionId: 'tx-1', publicKeyHash: 'h', ephemeralPublicKey: 'k' },
      version: 'EC_v1',
    },
    paymentMethod: { displayName: 'Visa 1111', network: 'Visa', type: 'debit' },
  });

  it('charges with the public key, showing the card the wallet held, masked', async () => {
    const wallet = client(t.url);
    const { status, body } = await wallet.post(
      '/charge/token/apple',
      { Token: applePay('4111111111111111'), Amount: 12.5, Currency: 'AUD', FirstName: 'Wal' },
      { 'x-publickey': a.publicKey, providerId: a.providerIds[0] ?? '' },
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      amount: 12.5,
      providerId: a.providerIds[0],
      paymentInformation: { type: 'APPLE_PAY', card: { cardNumber: '411111******1111', expiryDate: '12/30', type: 'VISA' } },
    });
    expect(JSON.stringify(body)).not.toContain('4111111111111111');
  });

  it('takes the secret key too (the .NET SDK sends it), and refuses a missing or wrong key', async () => {
    const wallet = client(t.url);
    const charge = { token: applePay('5555555555554444'), amount: 2 };
    expect((await wallet.post('/charge/token/apple', charge, { 'x-secretkey': a.secretKey })).body).toMatchObject({ status: 'SUCCESS' });
    expect((await wallet.post('/charge/token/apple', charge)).status).toBe(401);
    expect((await wallet.post('/charge/token/apple', charge, { 'x-secretkey': a.publicKey })).status).toBe(401);
    expect((await wallet.post('/charge/token/apple', charge, { 'x-publickey': a.secretKey })).status).toBe(401);
  });

  it('refuses tokens that are not in the wallet format or are declined', async () => {
    const wallet = client(t.url);
    const headers = { 'x-publickey': a.publicKey };
    const garbled = await wallet.post(
      '/charge/token/apple',
      { token: { paymentData: { data: 'bm90IGpzb24=', version: 'EC_v1' } }, amount: 1 },
      headers,
    );
    expect(garbled.status).toBe(400);
    const declined = await wallet.post('/charge/token/apple', { token: applePay('4000000000009995'), amount: 1 }, headers);
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ code: 43, message: 'The card was declined', gatewayMessage: null });
  });
});
