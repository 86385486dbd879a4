import { startFakeAdyen, startFakeStripe, type FakeAdyen, type FakeStripe } from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, dumpTables, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** Stripe and Adyen providers over REST: their own checked parameters, sealed, and the operator's endpoints. */
let t: TestGateway;
let a: TestAccount;
let stripe: FakeStripe;
let adyen: FakeAdyen;

const STRIPE_KEY = 'sk_test_51FakeGatewayProviderTypes0001';
const ADYEN = {
  ApiKey: 'AQEfake-api-key-for-provider-types-test',
  MerchantAccount: 'GatewayTestECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  adyen = await startFakeAdyen({ apiKey: ADYEN.ApiKey, merchantAccount: ADYEN.MerchantAccount, hmacKey: ADYEN.HmacKey });
  // The operator's override: an origin alone (Adyen's /v71 is kept from its own endpoint).
  t = await startTestGateway({ providerEndpoints: { stripe: stripe.url, adyen: new URL(adyen.url).origin } });
  a = await createAccount(t, []);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await adyen.close();
});

async function add(body: Record<string, unknown>) {
  return a.api.post('/provider', { name: 'Real', currency: 'EUR', ...body });
}

describe('POST /provider with a real provider type', () => {
  it('takes a stripe provider, its parameters in any case, answered masked under their own names', async () => {
    const { status, body } = await add({ type: 'Stripe', authenticationParameters: { secretkey: STRIPE_KEY } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ type: 'stripe', environment: 'SANDBOX', authenticationParameters: { SecretKey: '********' } });
    const row = await t.gateway.database.prisma.provider.findUniqueOrThrow({ where: { id: String(body.providerId) } });
    expect(row.credentialNames).toEqual(['SecretKey']);
  });

  it('refuses a stripe key of the wrong mode, of another kind, or none, naming the parameter and never its value', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ authenticationParameters: { SecretKey: 'sk_live_51FakeGatewayProviderTypes0001' } }, 'authenticationParameters.SecretKey'],
      [{ environment: 'PRODUCTION', authenticationParameters: { SecretKey: STRIPE_KEY } }, 'authenticationParameters.SecretKey'],
      [{ authenticationParameters: { SecretKey: 'pk_test_51FakeGatewayProviderTypes0001' } }, 'authenticationParameters.SecretKey'],
      [{ authenticationParameters: {} }, 'authenticationParameters.SecretKey'],
      [{ authenticationParameters: { SecretKey: STRIPE_KEY, WebhookSecret: 'not-a-secret' } }, 'authenticationParameters.WebhookSecret'],
      [{ authenticationParameters: { SecretKey: STRIPE_KEY, Password: 'x' } }, 'authenticationParameters.Password'],
    ];
    for (const [body, field] of cases) {
      const refused = await add({ type: 'stripe', ...body });
      expect(refused.status, field).toBe(400);
      expect(refused.body).toMatchObject({ code: 90, details: { [field]: expect.any(String) } });
      expect(JSON.stringify(refused.body)).not.toContain('FakeGatewayProviderTypes');
    }
    const live = await add({
      type: 'stripe',
      environment: 'PRODUCTION',
      authenticationParameters: { SecretKey: 'sk_live_51FakeGatewayProviderTypes0001', WebhookSecret: 'whsec_abcdefghijklmnopqrstuvwxyz' },
    });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({
      environment: 'PRODUCTION',
      authenticationParameters: { SecretKey: '********', WebhookSecret: '********' },
    });
  });

  it('takes an adyen provider, demanding LiveUrlPrefix for PRODUCTION only', async () => {
    const sandbox = await add({
      type: 'adyen',
      authenticationParameters: { apikey: ADYEN.ApiKey, merchantaccount: ADYEN.MerchantAccount, HMACKEY: ADYEN.HmacKey },
    });
    expect(sandbox.status, JSON.stringify(sandbox.body)).toBe(200);
    expect(Object.keys(sandbox.body.authenticationParameters as object)).toEqual(['ApiKey', 'MerchantAccount', 'HmacKey']);
    const production = await add({ type: 'adyen', environment: 'PRODUCTION', authenticationParameters: ADYEN });
    expect(production.status).toBe(400);
    expect(production.body).toMatchObject({
      code: 90,
      details: { 'authenticationParameters.LiveUrlPrefix': expect.stringContaining('PRODUCTION') },
    });
    const hostile = await add({
      type: 'adyen',
      environment: 'PRODUCTION',
      authenticationParameters: { ...ADYEN, LiveUrlPrefix: 'evil.example.com/x' },
    });
    expect(hostile.body).toMatchObject({ code: 90, details: { 'authenticationParameters.LiveUrlPrefix': expect.any(String) } });
    const missing = await add({ type: 'adyen', authenticationParameters: { ApiKey: ADYEN.ApiKey } });
    expect(missing.body.details).toEqual({
      'authenticationParameters.MerchantAccount': expect.any(String),
      'authenticationParameters.HmacKey': expect.any(String),
    });
  });

  it('checks new parameters on PUT against the provider type and environment, keeping those sent back masked', async () => {
    const created = await add({ type: 'stripe', authenticationParameters: { SecretKey: STRIPE_KEY } });
    const id = String(created.body.providerId);
    const live = await a.api.put(`/provider/${id}`, { authenticationParameters: { SecretKey: 'sk_live_51FakeGatewayProviderTypes0001' } });
    expect(live.body).toMatchObject({ code: 90, details: { 'authenticationParameters.SecretKey': expect.any(String) } });
    const kept = await a.api.put(`/provider/${id}`, {
      authenticationParameters: { SecretKey: '********', WebhookSecret: 'whsec_abcdefghijklmnopqrstuvwxyz' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.authenticationParameters).toEqual({ SecretKey: '********', WebhookSecret: '********' });
  });

  it('refuses a PUT that changes the type or the environment, naming the field; the same values pass', async () => {
    const created = await add({ type: 'stripe', authenticationParameters: { SecretKey: STRIPE_KEY } });
    const id = String(created.body.providerId);
    for (const [field, value] of [
      ['type', 'adyen'],
      ['type', 'dummy'],
      ['environment', 'PRODUCTION'],
    ] as const) {
      const { status, body } = await a.api.put(`/provider/${id}`, { [field]: value, name: 'Renamed' });
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ code: 90, details: { [field]: expect.stringContaining('cannot change') } });
    }
    const same = await a.api.put(`/provider/${id}`, { type: 'Stripe', environment: 'SANDBOX', name: 'Renamed' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body).toMatchObject({ type: 'stripe', environment: 'SANDBOX', name: 'Renamed' });
    const stored = await a.api.get(`/provider/${id}`);
    expect(stored.body).toMatchObject({ type: 'stripe', environment: 'SANDBOX', name: 'Renamed' });
  });

  it('answers an unknown type with code 100 and the supported list', async () => {
    const { status, body } = await add({ type: 'paypal' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 100 });
    expect(String(body.message)).toContain('dummy, stripe, adyen');
  });

  it('never keeps or logs the credentials in clear', async () => {
    for (const { table, rows } of await dumpTables(t)) {
      expect(
        rows.filter((r) => r.includes(STRIPE_KEY) || r.includes(ADYEN.ApiKey) || r.includes(ADYEN.HmacKey)),
        table,
      ).toEqual([]);
    }
    const logs = t.logs.join('');
    for (const secret of [STRIPE_KEY, ADYEN.ApiKey, ADYEN.HmacKey]) expect(logs).not.toContain(secret);
  });
});

describe('GET /info/provider_types', () => {
  it('lists each type with its parameters, currencies and operations', async () => {
    const { status, body } = await a.api.get<{ providerTypes: Array<Record<string, unknown>> }>('/info/provider_types');
    expect(status).toBe(200);
    expect(body.providerTypes.map((p) => p.type)).toEqual(['dummy', 'stripe', 'adyen', 'checkout', 'nab_transact']);
    const [dummy, stripeType, adyenType] = body.providerTypes;
    expect(stripeType).toMatchObject({
      displayName: 'Stripe',
      parameters: [
        { name: 'SecretKey', requiredIn: ['SANDBOX', 'PRODUCTION'], secret: true },
        { name: 'WebhookSecret', requiredIn: [], secret: true },
      ],
      currencies: expect.arrayContaining(['USD', 'EUR', 'JPY']),
      operations: expect.arrayContaining(['sale', 'partialRefund', 'singleUseToken']),
    });
    expect(stripeType?.operations).not.toContain('payTo');
    expect(adyenType?.parameters).toContainEqual(expect.objectContaining({ name: 'LiveUrlPrefix', requiredIn: ['PRODUCTION'] }));
    expect(adyenType?.operations).not.toContain('singleUseToken');
    expect(dummy?.operations).toEqual(expect.arrayContaining(['payTo', 'applePay', 'networkToken', 'bankAccountDebit']));
  });
});

describe('where the calls go', () => {
  it('sends a stripe and an adyen provider’s calls to the operator’s endpoints, with their own credentials', async () => {
    const b = await createAccount(t, []);
    const stripeProvider = await b.api.post('/provider', {
      type: 'stripe',
      name: 'Stripe',
      currency: 'EUR',
      authenticationParameters: { SecretKey: STRIPE_KEY },
    });
    const adyenProvider = await b.api.post('/provider', { type: 'adyen', name: 'Adyen', currency: 'EUR', authenticationParameters: ADYEN });
    const info = await b.api.get('/info/providers');
    expect(info.body).toMatchObject({ hasCardProviders: true, hasPayToProviders: false, payToProviders: [], applePayProviders: [] });

    const chargeAt = (providerId: unknown, cardNumber: string, expiryDate: string, ccv: string) =>
      b.api.post('/charge/card', { amount: 10, currency: 'EUR', providerId, paymentInformation: { cardNumber, expiryDate, ccv } });
    const viaStripe = await chargeAt(stripeProvider.body.providerId, '4242424242424242', '12/30', '123');
    expect(viaStripe.status, JSON.stringify(viaStripe.body)).toBe(201);
    expect(stripe.paymentIntents()).toHaveLength(1);
    expect(stripe.violations).toEqual([]);

    // Adyen's test card, with the expiry and CVC its test environment needs.
    const viaAdyen = await chargeAt(adyenProvider.body.providerId, '4111111111111111', '03/30', '737');
    expect(viaAdyen.status, JSON.stringify(viaAdyen.body)).toBe(201);
    expect(adyen.requests.filter((r) => r.path === '/payments' && r.authenticated)).toHaveLength(1);
    expect(adyen.violations).toEqual([]);
  });
});
