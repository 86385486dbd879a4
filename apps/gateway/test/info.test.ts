import { newTokenId } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** The /info routes and /version, as the .NET and PHP clients call them (with an sdk-version header). */
let t: TestGateway;
let a: TestAccount;
let empty: TestAccount;
let first: string;
let second: string;

const SDK = { 'sdk-version': '4.5.7' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function addProvider(account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const { status, body: provider } = await account.api.post('/provider', { type: 'dummy', name: 'Acquirer', currency: 'AUD', ...body });
  expect(status, JSON.stringify(provider)).toBe(200);
  return String(provider.providerId);
}

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t, []);
  empty = await createAccount(t, []);
  first = await addProvider(a, { name: 'First', threeDsProviderId: 'tds-1' });
  await sleep(5);
  second = await addProvider(a, { name: 'Second', currency: 'USD' });
});
afterAll(() => t.close());

const noOtherProviders = {
  paypalProviders: [],
  hasPaypalProviders: false,
  required3dsProvider: null,
  hasPayToProviders: false,
  payToProviders: [],
  payToProvidersWithOptions: [],
  hasBnplProviders: false,
  bnplProviders: [],
  hasVisaInstallmentsProviders: false,
  visaInstallmentsProviders: [],
  hasFraudProviders: false,
  fraudProviders: [],
  hasThreeDsProviders: false,
  threeDsProviders: [],
  allThreeDsProviders: [],
  hasGooglePayProviders: false,
  googlePayProviders: [],
  hasApplePayProviders: false,
  applePayProviders: [],
  clickToPayEnabled: false,
  clickToPayOptions: null,
  hasNetworkTokenProviders: false,
  networkTokenProviders: [],
};

describe('GET /info', () => {
  it('answers countries, currencies and time zones', async () => {
    const { status, body } = await a.api.get<{ countries: unknown[]; currencies: unknown[]; timezones: string[] }>('/info', SDK);
    expect(status).toBe(200);
    expect(body.countries).toHaveLength(249);
    expect(body.countries).toContainEqual({
      friendlyName: 'Australia',
      name: 'Australia',
      twoLetterCode: 'AU',
      threeLetterCode: 'AUS',
      numericCode: '036',
    });
    expect(body.countries).toContainEqual({
      friendlyName: 'South Korea',
      name: 'Korea, Republic of',
      twoLetterCode: 'KR',
      threeLetterCode: 'KOR',
      numericCode: '410',
    });
    expect(body.currencies).toContainEqual({
      id: 'AUD',
      currencyCode: 'AUD',
      currencyNumber: '036',
      name: 'Australian Dollar',
      useConversion: false,
    });
    expect(body.timezones).toEqual(expect.arrayContaining(['Australia/Sydney', 'Europe/London', 'America/New_York']));
  });

  it('needs the secret key', async () => {
    const { status, body } = await client(t.url).get('/info');
    expect(status).toBe(401);
    expect(body.code).toBe(40);
  });
});

describe('GET /info/providers', () => {
  it('says whether the account has a card provider, for the currency or provider asked about', async () => {
    const { status, body } = await a.api.get('/info/providers?Amount=15.5&Currency=AUD', SDK);
    expect(status).toBe(200);
    const applePay = (providerId: string, name: string) => ({
      lineItemLabel: name,
      merchantIdentifier: null,
      domainName: null,
      displayName: name,
      providerId,
      providerType: 'dummy',
      clientParameters: {},
    });
    // Both providers take AUD: a provider takes every currency of its type, whatever its own.
    expect(body).toEqual({
      ...noOtherProviders,
      hasCardProviders: true,
      // The simulated provider also takes PayTo, Apple Pay and network tokens.
      hasPayToProviders: true,
      payToProviders: [first, second],
      hasApplePayProviders: true,
      applePayProviders: [applePay(first, 'First'), applePay(second, 'Second')],
      hasNetworkTokenProviders: true,
      networkTokenProviders: [first, second].map((providerId) => ({ providerId, providerType: 'dummy', clientParameters: {} })),
    });
    expect((await a.api.get('/info/providers?amount=10&currency=eur&cardProviderId=x')).body.hasCardProviders).toBe(false);
    expect((await a.api.get('/info/providers?currency=EUR')).body.hasCardProviders).toBe(true);
    expect((await a.api.get(`/info/providers?cardProviderId=${second}`)).body.hasCardProviders).toBe(true);
    expect((await a.api.get(`/info/providers?cardProviderId=${second}&currency=AUD`)).body.hasCardProviders).toBe(true);
    expect((await empty.api.get('/info/providers')).body).toEqual({ hasCardProviders: false, ...noOtherProviders });
    expect((await a.api.get('/info/providers?currency=ABC')).body.code).toBe(29);
  });
});

describe('GET /info/providers/{providerId} and /info/providers/token/{token}', () => {
  it("answers a provider's info, also through a payment token issued for it", async () => {
    const info = { threeDsProviderId: 'tds-1', threeDsProviderType: null, requiredFields: {}, clientParameters: {}, googlePay: null };
    const byId = await a.api.get(`/info/providers/${first}?amount=10&currency=AUD`, SDK);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(info);
    expect((await a.api.get(`/info/providers/${second}`)).body).toEqual({ ...info, threeDsProviderId: null });

    const token = newTokenId();
    await t.gateway.database.prisma.paymentToken.create({
      data: { id: token, accountId: a.accountId, providerId: first, expiresAt: new Date(Date.now() + 60_000) },
    });
    const byToken = await a.api.get(`/info/providers/token/${token}?amount=10&currency=AUD`, SDK);
    expect(byToken.status).toBe(200);
    expect(byToken.body).toEqual(info);

    for (const response of [
      await empty.api.get(`/info/providers/token/${token}`),
      await a.api.get('/info/providers/token/no-such-token'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(87);
    }
    for (const response of [await empty.api.get(`/info/providers/${first}`), await a.api.get('/info/providers/no-such-provider')]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(39);
    }
  });
});

describe('GET /info/default_fallback_provider', () => {
  it("answers the account's oldest active card provider, else 404 code 65", async () => {
    const { status, body } = await a.api.get('/info/default_fallback_provider');
    expect(status).toBe(200);
    expect(body).toEqual((await a.api.get(`/provider/${first}`)).body);

    const c = await createAccount(t, []);
    const none = await c.api.get('/info/default_fallback_provider');
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(65);
    const only = await addProvider(c);
    await sleep(5);
    const later = await addProvider(c);
    await c.api.delete(`/provider/${only}`);
    expect((await c.api.get('/info/default_fallback_provider')).body.providerId).toBe(later);
  });
});

describe('GET /version', () => {
  it('answers a version, its date and the region', async () => {
    const { status, body } = await a.api.get('/version', SDK);
    expect(status).toBe(200);
    expect(body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/), released: expect.any(String), region: 'global' });
    expect(Number.isNaN(Date.parse(String(body.released)))).toBe(false);
  });
});
