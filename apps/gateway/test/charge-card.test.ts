import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, startTestGateway, VISA, VISA_AU, type TestAccount, type TestGateway } from './harness';

let t: TestGateway;
let a: TestAccount;
let providerId: string;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  providerId = a.providerIds[0] ?? '';
});
afterAll(() => t.close());

describe('POST /charge/card', () => {
  it('captures by default and answers 201 with the charge in wire form', async () => {
    const { status, body } = await a.api.post('/charge/card', {
      amount: 15.5,
      currency: 'AUD',
      providerId,
      reference: 'order-1',
      paymentInformation: card(),
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      amount: 15.5,
      currency: 'AUD',
      status: 'SUCCESS',
      providerId,
      reference: 'order-1',
      refundedAmount: 0,
      authorisationAmount: 15.5,
      refunds: [],
      failedAttempts: [],
      voidDate: null,
      customerId: null,
      paymentInformation: {
        type: 'CARD',
        card: {
          cardNumber: '411111******1111',
          expiryDate: '12/30',
          cardholder: 'Test Payer',
          type: 'VISA',
          cardType: 'CREDIT',
          cardIin: '411111',
        },
      },
      provider: { providerId, type: 'dummy', name: 'Cheap domestic' },
    });
    expect(body.chargeId).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof body.providerChargeId).toBe('string');
    expect(new Date(String(body.successDate)).getTime()).toBeGreaterThan(0);
    // International Visa at the cheap-domestic provider: 3 % of 15.50 + 0.30 = 0.765 → 0.77.
    expect(body).toMatchObject({ estimatedCost: 0.77, estimatedCostCurrency: 'AUD' });

    const again = await a.api.get(`/charge/${String(body.chargeId)}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(body);
  });

  it('writes whole amounts as JSON integers', async () => {
    const response = await fetch(`${t.url}/charge/card`, {
      method: 'POST',
      headers: { 'x-secretkey': a.secretKey, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ amount: '200', currency: 'AUD', providerId, paymentInformation: card(VISA_AU) }),
    });
    const text = await response.text();
    expect(response.status).toBe(201);
    expect(text).toContain('"amount":200,');
    expect(text).toContain('"refundedAmount":0,');
    expect(text).toContain('"estimatedCost":2.1,'); // 1 % of 200 + 0.10 domestic
  });

  it('only authorises with capture false', async () => {
    const { status, body } = await a.api.post('/charge/card', { amount: 20, providerId, capture: false, paymentInformation: card() });
    expect(status).toBe(201);
    expect(body).toMatchObject({ status: 'AUTHORISE', amount: 20, authorisationAmount: 20, successDate: null, currency: 'AUD' });
  });

  it('binds PascalCase (.NET/PHP), camelCase with explicit nulls (Java), string amounts and enum integers', async () => {
    const pascal = await a.api.post('/charge/card', {
      Amount: 20.0,
      Currency: 'aud',
      ProviderId: providerId,
      Initiator: 1,
      Metadata: { OrderRef: 'A-1' },
      PaymentInformation: { CardNumber: VISA, ExpiryDate: '12/30', Ccv: '123', Cardholder: 'Pascal Case' },
    });
    expect(pascal.status).toBe(201);
    expect(pascal.body).toMatchObject({ amount: 20, currency: 'AUD', initiator: 'MERCHANT', metadata: { OrderRef: 'A-1' } });

    const java = await a.api.post('/charge/card', {
      amount: '258',
      currency: 'AUD',
      providerId,
      reference: null,
      capture: null,
      initiator: 'CUSTOMER',
      webhook: null,
      paymentInformation: { cardNumber: VISA, expiryDate: '12/30', ccv: null, cardHolder: 'Java Client' },
    });
    expect(java.status).toBe(201);
    expect(java.body).toMatchObject({ amount: 258, status: 'SUCCESS', reference: null, initiator: 'CUSTOMER' });
    expect((java.body.paymentInformation as { card: { cardholder: string } }).card.cardholder).toBe('Java Client');
  });

  it.each([
    ['4000000000000002', 43, '05'],
    ['4000000000009995', 15, '51'],
    ['4000000000000069', 14, '54'],
    ['4000000000009979', 93, '43'],
  ])('stores a declined card %s as FAILED and answers code %i', async (number, code, gatewayCode) => {
    const { status, body } = await a.api.post('/charge/card', {
      amount: 10,
      providerId,
      reference: `decline-${gatewayCode}`,
      paymentInformation: card(number),
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code, gatewayCode, isRetryable: false, resource: '/charge/card' });
    expect(typeof body.gatewayMessage).toBe('string');
    const chargeId = (body.details as Record<string, string>).chargeId;
    const stored = await a.api.get(`/charge/${chargeId}`);
    expect(stored.body).toMatchObject({ status: 'FAILED', reference: `decline-${gatewayCode}` });
    expect(stored.body.failedAttempts).toHaveLength(1);
  });

  it('reports a processor error as retryable, without failing over to another provider', async () => {
    const { status, body } = await a.api.post('/charge/card', { amount: 10, providerId, paymentInformation: card('4000000000000119') });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 34, isRetryable: true, gatewayCode: '96' });
    const stored = await a.api.get(`/charge/${(body.details as Record<string, string>).chargeId}`);
    expect(stored.body).toMatchObject({ status: 'FAILED', providerId });
  });

  it('gives up on a provider that does not answer in time', async () => {
    const started = Date.now();
    const { status, body } = await a.api.post('/charge/card', { amount: 10, providerId, paymentInformation: card('4000000000000101') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 80, isRetryable: true, gatewayCode: 'TIMEOUT' });
  });
});

describe('card charge validation', () => {
  const valid = () => ({ amount: 10, currency: 'AUD', providerId, paymentInformation: card() });

  it.each([
    ['a Luhn failure', { paymentInformation: card('4111111111111112') }, 5, 'Invalid Card Number'],
    ['letters in the card number', { paymentInformation: card('4111abcd11111111') }, 5, 'Invalid Card Number'],
    ['a non-numeric CCV', { paymentInformation: card(VISA, { ccv: '12a' }) }, 6, undefined],
    ['no payment information', { paymentInformation: undefined }, 81, undefined],
    ['an unknown provider', { providerId: 'no-such-provider' }, 39, undefined],
    ['a bad expiry date', { paymentInformation: card(VISA, { expiryDate: '13/30' }) }, 9, undefined],
    ['an expired card', { paymentInformation: card(VISA, { expiryDate: '01/20' }) }, 14, undefined],
    ['too many decimals', { amount: 10.001 }, 2, undefined],
    ['decimals on a zero-decimal currency', { amount: '100.5', currency: 'JPY' }, 2, undefined],
    ['a zero amount', { amount: 0 }, 74, undefined],
    ['a negative amount', { amount: -5 }, 74, undefined],
    ['a non-numeric amount', { amount: 'ten' }, 2, undefined],
    ['an unknown currency', { currency: 'XYZ' }, 29, undefined],
  ])('refuses %s with code %i', async (_name, change, code, message) => {
    const { status, body } = await a.api.post('/charge/card', { ...valid(), ...change });
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(body.resource).toBe('/charge/card');
    expect(body.isRetryable).toBe(false);
    expect(body.type).toBe(`${t.url}/errorcodes#${code}`);
    if (message) expect(body.message).toBe(message);
  });

  it('answers 90 with string details for other validation failures, including the spec limits', async () => {
    const { status, body } = await a.api.post('/charge/card', {
      ...valid(),
      reference: 'r'.repeat(41),
      firstName: 'f'.repeat(41),
      capture: 'perhaps',
    });
    expect(status).toBe(400);
    expect(body.code).toBe(90);
    const details = body.details as Record<string, string>;
    expect(Object.keys(details).sort()).toEqual(['capture', 'firstName', 'reference']);
    for (const value of Object.values(details)) expect(typeof value).toBe('string');
  });

  it('accepts the limits themselves', async () => {
    const { status } = await a.api.post('/charge/card', {
      ...valid(),
      reference: 'r'.repeat(40),
      firstName: 'f'.repeat(40),
      lastName: 'l'.repeat(40),
    });
    expect(status).toBe(201);
  });

  it.each([
    ['malformed JSON', '{"amount": 10,', 400],
    ['a JSON array', '[1,2]', 400],
    ['a JSON string', '"charge"', 400],
    ['amount as an object', JSON.stringify({ amount: { value: 1 }, providerId: 'x' }), 400],
    ['a deeply wrong body', JSON.stringify({ paymentInformation: 'card', amount: [], metadata: 'x', address: 5 }), 400],
    ['a huge body', JSON.stringify({ reference: 'x'.repeat(2 * 1024 * 1024) }), 413],
  ])('answers %s with a 4xx error body, never a 5xx', async (_name, raw, expected) => {
    const response = await fetch(`${t.url}/charge/card`, {
      method: 'POST',
      headers: { 'x-secretkey': a.secretKey, 'content-type': 'application/json' },
      body: raw,
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(expected);
    expect(typeof body.code).toBe('number');
    expect(typeof body.message).toBe('string');
  });
});
