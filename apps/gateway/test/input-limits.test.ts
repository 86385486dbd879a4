import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';

/**
 * Input a client can send that used to end in a 500 or be silently misread: deep nesting, numbers
 * past what a column holds, repeated or empty query parameters (docs/api.md, "Input limits").
 */
let t: TestGateway;
let a: TestAccount;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
});
afterAll(() => t.close());

const errorLines = () => t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

async function charge(fields: Record<string, unknown> = {}) {
  const { status, body } = await a.api.post('/charge/card', {
    amount: 20,
    providerId: a.providerIds[0],
    paymentInformation: card(VISA),
    ...fields,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return String(body.chargeId);
}

describe('nesting depth', () => {
  it('refuses a body nested thousands of levels deep with a 400, before authentication, logging no error', async () => {
    const deep = `{"amount":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const path of ['/charge/card', '/token/card', '/payment_link']) {
      const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
      const body = (await response.json()) as { code: number; message: string };
      expect(response.status).toBe(400);
      expect(body.code).toBe(90);
      expect(body.message).toMatch(/more than 32 levels deep/);
    }
    expect(errorLines()).toEqual([]);
  });

  it('takes nesting as deep as an operation needs', async () => {
    await charge({ order: { items: [{ description: 'nested', quantity: 1 }] }, address: { line1: '1 Main St' } });
  });
});

describe('numeric bounds', () => {
  it.each(['/charge', '/subscription'])('answers 400 to amount bounds past 10^15 on GET %s', async (path) => {
    for (const query of ['AmountGreaterThan=9999999999999999', 'AmountLessThan=9999999999999999', 'AmountGreaterThan=-1e20']) {
      const { status, body } = await a.api.get(`${path}?${query}`);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(2);
    }
    const { status } = await a.api.get(`${path}?AmountGreaterThan=999999999999999.999&AmountLessThan=-999999999999999`);
    expect(status).toBe(200);
    expect(errorLines()).toEqual([]);
  });

  it('answers 400 to counts and offsets past a 32-bit integer', async () => {
    for (const path of ['/charge?Skip=2147483648', '/customer?Skip=1e15', '/batch?Skip=9007199254740991']) {
      const { status, body } = await a.api.get(path);
      expect(status, path).toBe(400);
      expect(body.code, path).toBe(90);
    }
    const items = [{ description: 'many', quantity: 2 ** 31 }];
    const { status } = await a.api.post('/charge/card', {
      amount: 1,
      providerId: a.providerIds[0],
      paymentInformation: card(VISA),
      order: { items },
    });
    expect(status).toBe(400);
  });

  it('answers 400 to a body amount past 10^15, in any currency', async () => {
    const { status, body } = await a.api.post('/subscription/payment_method', {
      paymentMethodId: 'x',
      amount: 10,
      endAfter: { amount: '1e300' },
    });
    expect(status).toBe(400);
    expect(body.code).toBe(2);
  });
});

describe('query parameters', () => {
  it('apply a filter spelled Name[] once, and answer 400 when a single-valued one is repeated', async () => {
    await charge({ reference: 'repeat-a' });
    const once = await a.api.get<{ count: number }>('/charge?Reference[]=repeat-a');
    expect(once.body.count).toBe(1);
    const other = await a.api.get<{ count: number }>('/charge?Reference[]=no-such-reference');
    expect(other.body.count).toBe(0);
    for (const query of ['Reference[]=a&Reference[]=b', 'Reference=a&Reference=b', 'Reference[0]=a&Reference[1]=b', 'Limit=5&Limit[]=6']) {
      const { status, body } = await a.api.get(`/charge?${query}`);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(90);
    }
  });

  it('take names that differ only in case as one name repeated: 400, neither value applied', async () => {
    await charge({ reference: 'case-b' });
    for (const query of ['Reference=case-a&reference=case-b', 'reference=case-b&REFERENCE[]=case-b', 'limit=5&Limit=6']) {
      const { status, body } = await a.api.get(`/charge?${query}`);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(90);
    }
    const id = await charge();
    for (const query of ['amount=1&Amount=', 'Amount=&amount=1', 'amount=1&AMOUNT=1']) {
      const { status } = await a.api.delete(`/charge/${id}?${query}`);
      expect(status, query).toBe(400);
    }
    const { body } = await a.api.get(`/charge/${id}`);
    expect(body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });
  });

  it('refuses an empty refund amount instead of refunding everything', async () => {
    const id = await charge();
    for (const query of ['amount=', 'Amount=', 'amount=&comment=x']) {
      const { status, body } = await a.api.delete(`/charge/${id}?${query}`);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(2);
    }
    const { body } = await a.api.get(`/charge/${id}`);
    expect(body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });
    const full = await a.api.delete(`/charge/${id}`);
    expect(full.body).toMatchObject({ status: 'REFUND', refundedAmount: 20 });
  });
});
