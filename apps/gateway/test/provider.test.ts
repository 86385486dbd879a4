import { open } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, dumpTables, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';

/** Providers over REST: what the client SDKs send, masking of credentials, fees in routing. */
let t: TestGateway;
let a: TestAccount;
let b: TestAccount;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t, []);
  b = await createAccount(t, [], { throughCommand: true });
});
afterAll(() => t.close());

const SECRET = 'pa55-Wörd-never-in-clear';
const MASK = '********';
const row = (id: string) => t.gateway.database.prisma.provider.findUniqueOrThrow({ where: { id } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function addProvider(account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const { status, body: provider } = await account.api.post('/provider', { type: 'dummy', name: 'Acquirer', currency: 'AUD', ...body });
  expect(status, JSON.stringify(provider)).toBe(200);
  return String(provider.providerId);
}

describe('POST /provider', () => {
  it('binds the .NET (PascalCase) and Java (camelCase, explicit nulls) bodies and answers every field', async () => {
    const dotNet = await a.api.post('/provider', {
      Type: 'dummy',
      Name: 'From .NET',
      Environment: 'SANDBOX',
      AuthenticationParameters: { MinMilliseconds: '1', MaxMilliseconds: '10', Password: SECRET },
      AdditionalParameters: {},
      ProviderCountry: 'AU',
      Currency: 'AUD',
    });
    expect(dotNet.status).toBe(200);
    expect(dotNet.body).toEqual({
      providerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'dummy',
      name: 'From .NET',
      environment: 'SANDBOX',
      authenticationParameters: { MinMilliseconds: MASK, MaxMilliseconds: MASK, Password: MASK },
      additionalParameters: {},
      providerCountry: 'AUS',
      costData: [],
      hideConfiguration: [],
      requireConfiguration: [],
      fallbackProviderId: null,
      currency: 'AUD',
      maxCapability: null,
      hasPartialRefund: true,
      fallbackProvider: null,
      hasThreeDsCapability: false,
    });
    const id = String(dotNet.body.providerId);
    expect(await row(id)).toMatchObject({ latencyMinMs: 1, latencyMaxMs: 10, timeoutMs: 10_000, settlementDelayMs: 2_000 });

    const java = await a.api.post('/provider', {
      type: 'dummy',
      name: 'From Java',
      environment: 'production',
      authenticationParameters: { Password: SECRET },
      additionalParameters: null,
      providerCountry: 'nzl',
      currency: null,
      threeDsProviderId: null,
      costData: [
        { cardScheme: 'visa', isInternationalCard: 'false', transactionCost: '0.30', transactionPercentage: '1.75' },
        { transactionPercentage: 2.5 },
      ],
    });
    expect(java.status).toBe(200);
    expect(java.body).toMatchObject({
      environment: 'PRODUCTION',
      authenticationParameters: { Password: MASK },
      providerCountry: 'NZL',
      currency: 'AUD',
      costData: expect.arrayContaining([
        { currency: 'AUD', cardScheme: 'VISA', isInternationalCard: false, transactionCost: 0.3, transactionPercentage: 1.75 },
        { currency: 'AUD', cardScheme: null, isInternationalCard: null, transactionCost: 0, transactionPercentage: 2.5 },
      ]),
    });
    expect(await row(String(java.body.providerId))).toMatchObject({ latencyMinMs: 20, latencyMaxMs: 150 });

    expect((await a.api.get(`/provider/${id}`)).body).toEqual(dotNet.body);
  });

  /** The provider's credentials as stored, opened with the gateway's keyring. */
  async function storedCredentials(id: string): Promise<unknown> {
    const stored = await row(id);
    const sealed = {
      keyId: String(stored.credentialsKeyId),
      wrappedKey: Buffer.from(stored.credentialsKey ?? []),
      ciphertext: Buffer.from(stored.credentials ?? []),
    };
    return JSON.parse(open(sealed, `provider:${id}:credentials`, t.gateway.services.config.keyring));
  }

  it('stores credentials sealed: never in clear in the database or in any answer', async () => {
    const id = await addProvider(a, { authenticationParameters: { MerchantId: 'm-1', Password: SECRET } });
    await a.api.put(`/provider/${id}`, { name: 'Renamed' });
    const answers = [await a.api.get(`/provider/${id}`), await a.api.get('/provider?limit=100'), await a.api.delete(`/provider/${id}`)];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    expect((await row(id)).credentialNames).toEqual(['MerchantId', 'Password']);
    expect(await storedCredentials(id)).toEqual({ MerchantId: 'm-1', Password: SECRET });
    for (const { table, rows } of await dumpTables(t))
      expect(
        rows.filter((r) => r.includes(SECRET)),
        table,
      ).toEqual([]);
    expect(t.logs.join('\n')).not.toContain(SECRET);
  });

  it('keeps a credential sent back as the mask, and changes the others', async () => {
    const id = await addProvider(a, { authenticationParameters: { MerchantId: 'm-1', Password: SECRET } });
    const read = (await a.api.get(`/provider/${id}`)).body.authenticationParameters as Record<string, string>;
    expect(read).toEqual({ MerchantId: '********', Password: '********' });
    await a.api.put(`/provider/${id}`, { authenticationParameters: { ...read, MerchantId: 'm-2' } });
    expect(await storedCredentials(id)).toEqual({ MerchantId: 'm-2', Password: SECRET });
  });

  it('reads the dummy settings in any key case, filling in the missing latency bound', async () => {
    const id = await addProvider(a, {
      authenticationParameters: { minmilliseconds: '200', TIMEOUTMILLISECONDS: '500', SettlementDelayMilliseconds: '0' },
    });
    expect(await row(id)).toMatchObject({ latencyMinMs: 200, latencyMaxMs: 200, timeoutMs: 500, settlementDelayMs: 0 });
    const onlyMax = await addProvider(a, { authenticationParameters: { MaxMilliseconds: '5' } });
    expect(await row(onlyMax)).toMatchObject({ latencyMinMs: 5, latencyMaxMs: 5 });
  });

  it('makes a card charge take the latency set by MinMilliseconds', async () => {
    const providerId = await addProvider(a, { authenticationParameters: { MinMilliseconds: '300', MaxMilliseconds: '300' } });
    const started = performance.now();
    const { status } = await a.api.post('/charge/card', { amount: 10, providerId, paymentInformation: card() });
    expect(status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it.each([
    ['an unsupported type', 100, { type: 'paypal' }],
    ['no name', 90, { name: null }],
    ['an unknown environment', 90, { environment: 'STAGING' }],
    ['an unknown country', 7, { providerCountry: 'XX' }],
    ['an unknown currency', 29, { currency: 'ABC' }],
    ['a latency that is not a number', 90, { authenticationParameters: { MinMilliseconds: 'fast' } }],
    ['a latency range upside down', 90, { authenticationParameters: { MinMilliseconds: '500', MaxMilliseconds: '100' } }],
    ['a latency over a minute', 90, { authenticationParameters: { MaxMilliseconds: '60001' } }],
    ['a timeout under 100 ms', 90, { authenticationParameters: { TimeoutMilliseconds: '99' } }],
    ['a fixed fee finer than the currency', 90, { costData: [{ transactionCost: '0.001' }] }],
    ['a negative fixed fee', 90, { costData: [{ transactionCost: -1 }] }],
    ['a percentage over 100', 90, { costData: [{ transactionPercentage: '100.5' }] }],
    ['a percentage with 5 decimals', 90, { costData: [{ transactionPercentage: '1.23456' }] }],
    ['a fee line in an unknown currency', 29, { costData: [{ currency: 'ABC', transactionPercentage: '1' }] }],
    ["a fixed fee finer than its line's currency", 90, { costData: [{ currency: 'JPY', transactionCost: '0.5' }] }],
  ])('refuses %s (code %i)', async (_what, code, fields) => {
    const { status, body } = await a.api.post('/provider', { type: 'dummy', name: 'Bad', ...fields });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code, resource: '/provider' });
  });

  it('keeps fee lines per currency, each fixed fee in its own currency, and answers them back', async () => {
    const { status, body } = await a.api.post('/provider', {
      type: 'dummy',
      name: 'Many currencies',
      currency: 'AUD',
      costData: [
        { transactionCost: '0.30', transactionPercentage: '1.5' },
        { Currency: 'usd', cardScheme: 'visa', transactionCost: '0.2', transactionPercentage: '1.2' },
        { currency: 'JPY', transactionCost: 30, transactionPercentage: 2 },
        { currency: 'KWD', transactionCost: '0.125' },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.costData).toEqual(
      expect.arrayContaining([
        { currency: 'AUD', cardScheme: null, isInternationalCard: null, transactionCost: 0.3, transactionPercentage: 1.5 },
        { currency: 'USD', cardScheme: 'VISA', isInternationalCard: null, transactionCost: 0.2, transactionPercentage: 1.2 },
        { currency: 'JPY', cardScheme: null, isInternationalCard: null, transactionCost: 30, transactionPercentage: 2 },
        { currency: 'KWD', cardScheme: null, isInternationalCard: null, transactionCost: 0.125, transactionPercentage: 0 },
      ]),
    );
    const fees = await t.gateway.database.prisma.providerFee.findMany({ where: { providerId: String(body.providerId) } });
    expect(fees.map((fee) => [fee.currency, fee.fixedMinor]).sort()).toEqual([
      ['AUD', 30n],
      ['JPY', 30n],
      ['KWD', 125n],
      ['USD', 20n],
    ]);
    const refused = await a.api.post('/provider', {
      type: 'dummy',
      name: 'Bad',
      costData: [{}, { currency: 'JPY', transactionCost: '0.5' }],
    });
    expect(refused.body).toMatchObject({ code: 90, details: { 'costData.1.transactionCost': expect.stringContaining('in JPY') } });
  });

  it('names the offending parameter or fee', async () => {
    const latency = await a.api.post('/provider', { type: 'dummy', name: 'Bad', authenticationParameters: { minMilliseconds: 'x' } });
    expect(latency.body.details).toEqual({ 'authenticationParameters.minMilliseconds': expect.any(String) });
    const fee = await a.api.post('/provider', { type: 'dummy', name: 'Bad', currency: 'JPY', costData: [{}, { transactionCost: '0.5' }] });
    expect(fee.body.details).toEqual({ 'costData.1.transactionCost': expect.stringContaining('JPY') });
  });
});

describe('PUT, GET and DELETE /provider/{providerId}', () => {
  it('changes only the fields sent (the PHP client sends only Name)', async () => {
    const id = await addProvider(a, {
      providerCountry: 'AUS',
      authenticationParameters: { MinMilliseconds: '1', MaxMilliseconds: '2' },
      costData: [{ transactionCost: '0.30', transactionPercentage: '1' }],
    });
    const before = (await a.api.get(`/provider/${id}`)).body;
    const renamed = await a.api.put(`/provider/${id}`, { Name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...before, name: 'New name' });

    const replaced = await a.api.put(`/provider/${id}`, {
      authenticationParameters: { MaxMilliseconds: '40', Token: SECRET },
      additionalParameters: { MerchantCategory: '5999' },
      providerCountry: 'US',
      threeDsProviderId: 'tds-1',
      costData: [{ cardScheme: 'AMEX', transactionPercentage: '3' }],
    });
    expect(replaced.body).toEqual({
      ...before,
      name: 'New name',
      authenticationParameters: { MaxMilliseconds: MASK, Token: MASK },
      additionalParameters: { MerchantCategory: '5999' },
      providerCountry: 'USA',
      costData: [{ currency: 'AUD', cardScheme: 'AMEX', isInternationalCard: null, transactionCost: 0, transactionPercentage: 3 }],
    });
    expect(await row(id)).toMatchObject({ latencyMinMs: 20, latencyMaxMs: 40, timeoutMs: 10_000, threeDsProviderId: 'tds-1' });
  });

  it('moves the fee lines of the old currency to a new one, keeping their amounts, or refuses them when they do not fit it', async () => {
    const id = await addProvider(a, {
      costData: [
        { transactionCost: '0.30', transactionPercentage: '1' },
        { currency: 'EUR', transactionCost: '0.25', transactionPercentage: '1.5' },
      ],
    });
    const refused = await a.api.put(`/provider/${id}`, { currency: 'JPY' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 90, details: { 'costData.0.transactionCost': expect.stringContaining('JPY') } });
    expect((await a.api.get(`/provider/${id}`)).body.currency).toBe('AUD');

    const usd = await a.api.put(`/provider/${id}`, { currency: 'usd' });
    expect(usd.body).toMatchObject({ currency: 'USD' });
    expect(usd.body.costData).toEqual(
      expect.arrayContaining([
        { currency: 'USD', cardScheme: null, isInternationalCard: null, transactionCost: 0.3, transactionPercentage: 1 },
        { currency: 'EUR', cardScheme: null, isInternationalCard: null, transactionCost: 0.25, transactionPercentage: 1.5 },
      ]),
    );
    // Lines in EUR already: moving the USD ones there would price EUR twice.
    const twice = await a.api.put(`/provider/${id}`, { currency: 'EUR' });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 90, details: { costData: expect.stringContaining('USD and EUR') } });
    const jpy = await a.api.put(`/provider/${id}`, { currency: 'JPY', costData: [{ transactionCost: 30 }] });
    expect(jpy.body).toMatchObject({ currency: 'JPY', costData: [{ currency: 'JPY', transactionCost: 30, transactionPercentage: 0 }] });
  });

  it('lists the active providers newest first, paged', async () => {
    const c = await createAccount(t, []);
    const first = await addProvider(c);
    await sleep(5);
    const second = await addProvider(c);
    await sleep(5);
    const removed = await addProvider(c);
    await c.api.delete(`/provider/${removed}`);
    const all = await c.api.get('/provider');
    expect(all.body).toMatchObject({ limit: 20, skip: 0, count: 2 });
    expect((all.body.providers as Array<{ providerId: string }>).map((p) => p.providerId)).toEqual([second, first]);
    const page = await c.api.get('/provider?Limit=1&Skip=1');
    expect(page.body).toMatchObject({ limit: 1, skip: 1, count: 2, providers: [{ providerId: first }] });
  });

  it('removes softly: the provider is answered once, then unknown and no longer charged', async () => {
    const providerId = await addProvider(a);
    const before = (await a.api.get(`/provider/${providerId}`)).body;
    const removed = await a.api.delete(`/provider/${providerId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(before);
    expect(await row(providerId)).toMatchObject({ dateRemoved: expect.any(Date) });

    for (const response of [
      await a.api.get(`/provider/${providerId}`),
      await a.api.put(`/provider/${providerId}`, { name: 'Back' }),
      await a.api.delete(`/provider/${providerId}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 39, resource: `/provider/${providerId}` });
    }
    const charge = await a.api.post('/charge/card', { amount: 10, providerId, paymentInformation: card() });
    expect(charge.status).toBe(400);
    expect(charge.body.code).toBe(39);
  });

  it("answers another account's provider as unknown (404, 39)", async () => {
    const id = await addProvider(a);
    for (const response of [
      await b.api.get(`/provider/${id}`),
      await b.api.put(`/provider/${id}`, { name: 'Mine' }),
      await b.api.delete(`/provider/${id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(39);
    }
    expect((await b.api.get('/provider')).body.count).toBe(0);
    expect((await a.api.get(`/provider/${id}`)).body.name).toBe('Acquirer');
  });
});

describe('fees in least-cost routing', () => {
  it('routes by the costData of providers created, changed and removed through the API', async () => {
    const c = await createAccount(t, []);
    const fast = { authenticationParameters: { MinMilliseconds: '0', MaxMilliseconds: '0' } };
    const dear = await addProvider(c, { ...fast, costData: [{ transactionCost: 0.5, transactionPercentage: 2 }] });
    const cheap = await addProvider(c, { ...fast, costData: [{ transactionCost: '0.10', transactionPercentage: '1' }] });
    const charge = (body: Record<string, unknown> = {}) =>
      c.api.post('/charge/card/least_cost', { amount: 100, paymentInformation: card(VISA), ...body });

    // 1 % + 0.10 = 1.10 against 2 % + 0.50 = 2.50.
    expect((await charge()).body).toMatchObject({ providerId: cheap, estimatedCost: 1.1, estimatedCostCurrency: 'AUD', status: 'SUCCESS' });

    await c.api.put(`/provider/${dear}`, { costData: [{ transactionPercentage: '0.5' }] });
    expect((await charge()).body).toMatchObject({ providerId: dear, estimatedCost: 0.5 });

    // In USD now, its fees are in USD: with no exchange rate its cost in AUD is unknown, and the
    // AUD provider's in USD, so each currency goes to the provider whose cost in it is known.
    await c.api.put(`/provider/${dear}`, { currency: 'USD' });
    expect((await charge()).body).toMatchObject({ providerId: cheap, estimatedCost: 1.1 });
    expect((await charge({ currency: 'USD' })).body).toMatchObject({ providerId: dear, estimatedCost: 0.5, estimatedCostCurrency: 'USD' });

    await c.api.delete(`/provider/${cheap}`);
    const none = await charge();
    expect(none.status).toBe(400);
    expect(none.body.code).toBe(63);
  });
});
