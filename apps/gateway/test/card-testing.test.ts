import { DEFAULT_LIMITS } from '@gateway/api';
import { parseExchangeRates, passesLuhn } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, client, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** Card testing through the public key: limits per key, per client address and per card (issue 12, point 2). */
let t: TestGateway;
/** Public-key calls per account in this file (an hour): above the 100 per address, below the default 1000. */
const PUBLIC_KEY_CALLS = 150;

beforeAll(async () => {
  t = await startTestGateway({
    limits: {
      ...DEFAULT_LIMITS,
      'public-key-declines': { points: 20, seconds: 3600 },
      // A window far longer than the test, however slow the machine.
      'public-key-calls': { points: PUBLIC_KEY_CALLS, seconds: 3600 },
    },
    // 1 AUD is 100 JPY; 1 KWD is 5 AUD. No NZD rate.
    exchangeRates: parseExchangeRates('AUD:JPY=100,KWD:AUD=5'),
  });
});
afterAll(() => t.close());

const DECLINED = '4000000000009995'; // insufficient funds
// Each test declines cards of its own: the per-card limits hold across accounts.
const STOLEN = '4000000000009979';
const EXPIRED = '4000000000000069';
const DO_NOT_HONOUR = '4000000000000002';
const RETRYABLE = '4000000000000119'; // processor error, retryable
/**
 * The i-th (below 1000) Luhn-valid card of its own, for declines that the per-card limit does not
 * stop (wallet data with a past expiry is declined as expired); its first six are no test card's.
 */
const otherCard = (i: number) => {
  const body = `510000${String(i).padStart(9, '0')}`;
  return `${body}${[...'0123456789'].find((digit) => passesLuhn(body + digit))}`;
};
const browser = (account: TestAccount, address: string, extra: Record<string, string> = {}) => {
  const api = client(t.url);
  // The gateway believes X-Forwarded-For from loopback (GATEWAY_TRUSTED_PROXIES' default), as from the dashboard.
  const headers = { 'x-publickey': account.publicKey, 'x-forwarded-for': address, ...extra };
  return { post: (path: string, body: unknown) => api.post(path, body, headers) };
};
const applePay = (cardNumber: string, expiryYear = 2030) => ({
  paymentData: {
    data: Buffer.from(JSON.stringify({ cardNumber, expiryMonth: 12, expiryYear })).toString('base64'),
    signature: 'sig',
    header: { transactionId: 'tx-1', publicKeyHash: 'h', ephemeralPublicKey: 'k' },
    version: 'EC_v1',
  },
  paymentMethod: { displayName: 'Visa 9995', network: 'Visa', type: 'debit' },
});

const expiredWallet = (i: number) => ({ token: applePay(otherCard(i), 2020), amount: 1 });

async function payLink(account: TestAccount, address: string, cardNumber: string, extra: Record<string, string> = {}) {
  const link = await account.api.post<{ paymentLinkId: string }>('/payment_link', { title: 'Ticket', amount: 5, currency: 'AUD' });
  const payer = browser(account, address, extra);
  const token = await payer.post('/token/card', { paymentInformation: card(cardNumber) });
  if (token.status !== 200) return token;
  return payer.post(`/payment_link/${link.body.paymentLinkId}/pay`, { token: token.body.tokenId });
}

describe('declines with the public key', () => {
  it('50 in a row from one address: declined, told only "declined", then 429 with Retry-After', async () => {
    const a = await createAccount(t);
    const payer = browser(a, '203.0.113.1');
    const answers = [];
    answers.push(await payer.post('/charge/token/apple', { token: applePay(DECLINED), amount: 1 }));
    for (let i = 1; i < 50; i += 1) answers.push(await payer.post('/charge/token/apple', expiredWallet(i)));
    const declined = answers.filter((r) => r.status === 400);
    expect(declined).toHaveLength(DEFAULT_LIMITS['public-address-declines'].points);
    expect(answers.slice(declined.length).every((r) => r.status === 429)).toBe(true);
    for (const { body } of declined) {
      expect(body).toMatchObject({ code: 43, message: 'The card was declined', gatewayCode: null, gatewayMessage: null });
      expect(JSON.stringify(body)).not.toMatch(/insufficient|funds|\b51\b/i);
    }
    expect(answers.at(-1)?.body).toMatchObject({ code: 35, message: 'Too many payment attempts: try again later' });
    const retry = await fetch(`${t.url}/charge/token/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-publickey': a.publicKey, 'x-forwarded-for': '203.0.113.1' },
      body: JSON.stringify({ token: applePay(DECLINED), amount: 1 }),
    });
    expect(retry.status).toBe(429);
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(3000);
    // The secret key and the dashboard still see why.
    const chargeId = String((declined[0]?.body.details as { chargeId: string }).chargeId);
    const charge = await a.api.get<{ status: string; gatewayCode: string; gatewayMessage: string }>(`/charge/${chargeId}`);
    expect(charge.body).toMatchObject({ status: 'FAILED' });
    expect(JSON.stringify(charge.body)).toMatch(/Insufficient funds/);
    // Another address of the same account is not limited by this one's declines.
    expect((await browser(a, '203.0.113.2').post('/charge/token/apple', { token: applePay(DECLINED), amount: 1 })).status).toBe(400);
  });

  it('a repeat with the same Idempotency-Key is told only "declined" too, and counted', async () => {
    const a = await createAccount(t);
    const payer = browser(a, '203.0.113.40', { 'idempotency-key': 'checkout-1' });
    const answers = [];
    // A card of this test's own (the per-card limits hold across tests), declined as expired.
    for (let i = 0; i < 3; i += 1) answers.push(await payer.post('/charge/token/apple', expiredWallet(700)));
    for (const { status, body } of answers) {
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 43, message: 'The card was declined', gatewayCode: null, gatewayMessage: null });
      expect(JSON.stringify(body)).not.toMatch(/expir|\b54\b/i);
    }
    // One charge, three declines counted: the address has 10 - 3 left.
    const chargeIds = answers.map(({ body }) => (body.details as { chargeId?: string } | undefined)?.chargeId);
    expect(chargeIds[0]).toEqual(expect.any(String));
    expect(new Set(chargeIds).size).toBe(1);
    const rest = [];
    for (let i = 0; i < 8; i += 1) rest.push((await browser(a, '203.0.113.40').post('/charge/token/apple', expiredWallet(710 + i))).status);
    expect(rest).toEqual([400, 400, 400, 400, 400, 400, 400, 429]);
  });

  it('are limited per public key, from however many addresses', async () => {
    const a = await createAccount(t);
    const statuses = [];
    for (let i = 0; i < 25; i += 1)
      statuses.push((await browser(a, `198.51.100.${i}`).post('/charge/token/apple', expiredWallet(i))).status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    // Another account's public key is not.
    const b = await createAccount(t);
    expect((await browser(b, '198.51.100.99').post('/charge/token/apple', { token: applePay(DECLINED), amount: 1 })).status).toBe(400);
  });

  it('are limited per card, through tokens and payment links from any address; the secret key is never limited by card', async () => {
    const a = await createAccount(t);
    const statuses = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await payLink(a, `192.0.2.${i}`, STOLEN)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    // Other cards go on.
    expect((await payLink(a, '192.0.2.50', '4111111111111111')).status).toBe(200);
    // The merchant's back end charges the same card with its secret key: no limit, and the reason is told.
    for (let i = 0; i < 8; i += 1) {
      const { status, body } = await a.api.post('/charge/card', {
        amount: 1,
        providerId: a.providerIds[0],
        paymentInformation: card(STOLEN),
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 93, gatewayCode: '43' });
    }
  });

  it('an x-secretkey header that does not authenticate the call changes nothing: still limited, still told only "declined"', async () => {
    const a = await createAccount(t);
    const answers = [];
    for (let i = 0; i < 7; i += 1) answers.push(await payLink(a, `192.0.2.${100 + i}`, EXPIRED, { 'x-secretkey': 'nope' }));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 429, 429]);
    for (const { body } of answers.slice(0, 5))
      expect(body).toMatchObject({ code: 43, message: 'The card was declined', gatewayCode: null });
    // An operation that takes either key refuses a secret key that does not authenticate.
    const wallet = await browser(a, '192.0.2.120', { 'x-secretkey': 'nope' }).post('/charge/token/apple', expiredWallet(1));
    expect(wallet.status).toBe(401);
  });

  it('are reserved before the call: a parallel burst gets no more declines than the limit, the rest 429', async () => {
    const a = await createAccount(t);
    const payer = browser(a, '203.0.113.30');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => payer.post('/charge/token/apple', expiredWallet(i))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(DEFAULT_LIMITS['public-address-declines'].points);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - DEFAULT_LIMITS['public-address-declines'].points);
    // Calls that were not declined give their reservation back: 12 approvals from a fresh address leave its declines untouched.
    const b = await createAccount(t);
    for (let i = 0; i < 12; i += 1) {
      expect(
        (await browser(b, '203.0.113.31').post('/charge/token/apple', { token: applePay('4111111111111111'), amount: 1 })).status,
      ).toBe(201);
    }
    expect((await browser(b, '203.0.113.31').post('/charge/token/apple', expiredWallet(99))).status).toBe(400);
  });

  it('every refusal from the provider is told as "declined" and counted, a retryable one too; wallet declines of one card hit the per-card limit', async () => {
    const a = await createAccount(t);
    const answers = [];
    for (let i = 0; i < 7; i += 1)
      answers.push(await browser(a, `198.18.0.${i}`).post('/charge/token/apple', { token: applePay(RETRYABLE), amount: 1 }));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 429, 429]);
    for (const { body } of answers.slice(0, 5)) {
      expect(body).toMatchObject({ code: 43, message: 'The card was declined', gatewayCode: null, gatewayMessage: null });
      expect(JSON.stringify(body)).not.toMatch(/processor|\b96\b/i);
    }
    const statuses = [];
    for (let i = 0; i < 7; i += 1)
      statuses.push((await browser(a, `198.18.1.${i}`).post('/charge/token/apple', { token: applePay(DO_NOT_HONOUR), amount: 1 })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    // The secret key still sees the provider's answer.
    const { body } = await a.api.post('/charge/token/apple', { token: applePay(RETRYABLE), amount: 1 });
    expect(body).toMatchObject({ code: 34, gatewayCode: '96' });
  });
});

describe('calls with the public key', () => {
  it('are limited per client address and per public key, approvals included: 429 with Retry-After past either', async () => {
    const a = await createAccount(t);
    const addressCalls = DEFAULT_LIMITS['public-address-calls'].points;
    const payer = browser(a, '100.64.0.1');
    // One by one, each with a card of its own: in parallel, or with one card, the reserved declines would refuse first.
    const burst = [];
    for (let i = 0; i < addressCalls + 10; i += 1)
      burst.push(await payer.post('/token/card', { paymentInformation: card(otherCard(200 + i)) }));
    expect(burst.slice(0, addressCalls).every((r) => r.status === 200)).toBe(true);
    expect(burst.slice(addressCalls).every((r) => r.status === 429)).toBe(true);
    expect(burst.find((r) => r.status === 429)?.body).toMatchObject({ code: 35 });
    const refused = await fetch(`${t.url}/token/card`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-publickey': a.publicKey, 'x-forwarded-for': '100.64.0.1' },
      body: JSON.stringify({ paymentInformation: card(otherCard(400)) }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // From other addresses the key goes on until its own limit (refused calls count too: 111 so far).
    const spread = [];
    for (let i = 0; i < PUBLIC_KEY_CALLS - addressCalls - 10; i += 1)
      spread.push((await browser(a, `100.64.1.${i}`).post('/token/card', { paymentInformation: card(otherCard(500 + i)) })).status);
    expect(spread.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(spread.at(-1)).toBe(429);
    // Another account's key, from a fresh address, is not limited; the account's secret key is not either.
    const b = await createAccount(t);
    expect((await browser(b, '100.64.2.1').post('/token/card', { paymentInformation: card() })).status).toBe(200);
    const charge = await a.api.post('/charge/card', { amount: 1, providerId: a.providerIds[0], paymentInformation: card() });
    expect(charge.status).toBe(201);
  });
});

describe('wallet charges with the public key', () => {
  const charge = (amount: number) => ({ token: applePay('4111111111111111'), amount, currency: 'AUD' });

  async function signedIn(account: TestAccount) {
    const email = `staff-${account.accountId}@example.com`;
    await t.gateway.services.staff.create({ id: account.accountId }, { email, name: 'Staff', password: 'correct horse battery staple' });
    const response = await fetch(`${t.url}/trpc/staff.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery staple' }),
    });
    const cookie = response.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    return async (enabled: boolean, maxAmount: number | null) => {
      const set = await fetch(`${t.url}/trpc/account.setWalletChargeSettings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ enabled, maxAmount }),
      });
      return ((await set.json()) as { result: { data: unknown } }).result.data;
    };
  }

  it('are capped at 1000 by default, a cap staff change, and can be switched off; the secret key is not capped', async () => {
    const a = await createAccount(t);
    const payer = browser(a, '203.0.113.200');
    expect((await payer.post('/charge/token/apple', charge(1000))).status).toBe(201);
    const over = await payer.post('/charge/token/apple', charge(4999.99));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 25 });
    expect((await a.api.post('/charge/token/apple', charge(4999.99))).status).toBe(201);

    const settings = await signedIn(a);
    expect(await settings(true, 5000)).toEqual({ enabled: true, maxAmount: 5000 });
    expect((await payer.post('/charge/token/apple', charge(4999.99))).status).toBe(201);
    expect(await settings(false, 5000)).toEqual({ enabled: false, maxAmount: 5000 });
    const off = await payer.post('/charge/token/apple', charge(1));
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ code: 26 });
    expect((await a.api.post('/charge/token/apple', charge(1))).status).toBe(201);
  });

  it('the cap is in AUD: other currencies are converted with GATEWAY_EXCHANGE_RATES, and refused without a rate', async () => {
    const a = await createAccount(t);
    const payer = browser(a, '203.0.113.201');
    const wallet = (amount: number | string, currency: string) => payer.post('/charge/token/apple', { ...charge(1), amount, currency });
    // AUD 1000 is JPY 100,000 (no minor units) and KWD 200.000 (three decimals).
    expect((await wallet(100000, 'JPY')).status).toBe(201);
    expect((await wallet(100001, 'JPY')).body).toMatchObject({ code: 25 });
    expect((await wallet('200.000', 'KWD')).status).toBe(201);
    expect((await wallet('200.001', 'KWD')).body).toMatchObject({ code: 25 });
    const noRate = await wallet(1, 'NZD');
    expect(noRate.status).toBe(400);
    expect(noRate.body).toMatchObject({ code: 29 });
    expect((await a.api.post('/charge/token/apple', { ...charge(1), amount: 1, currency: 'NZD' })).status).toBe(201);
  });
});
