import { appRouter } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/**
 * Whatever a client sends, the answer is a 2xx or a 4xx with the error body: a 5xx would be a
 * gateway bug. Every route gets bodies and queries of the wrong shape, type and size.
 */
let t: TestGateway;
let a: TestAccount;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
});
afterAll(() => t.close());

const routes = Object.values(appRouter._def.procedures).flatMap(
  (p) => (p as unknown as { _def: { meta?: { openapi?: { method: string; path: string } } } })._def.meta?.openapi ?? [],
);

const JUNK_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1e308,
  'x'.repeat(5000),
  '💳\u0000',
  [],
  [1, 'a'],
  {},
  { nested: { deeper: [null] } },
  '1e999',
  'NaN',
];

function junkBodies(): unknown[] {
  const keys = [
    'amount',
    'Amount',
    'currency',
    'providerId',
    'paymentInformation',
    'capture',
    'metadata',
    'webhook',
    'limit',
    'order',
    'address',
    'initiator',
  ];
  const bodies: unknown[] = [];
  for (const value of JUNK_VALUES) bodies.push(Object.fromEntries(keys.map((k) => [k, value])));
  bodies.push({
    paymentInformation: { cardNumber: 4111111111111111, expiryDate: 1230, ccv: 123 },
    amount: '10',
    providerId: a.providerIds[0],
  });
  bodies.push({
    amount: '1'.repeat(400),
    providerId: a.providerIds[0],
    paymentInformation: { cardNumber: '4111111111111111', expiryDate: '12/30' },
  });
  bodies.push({ order: { items: Array.from({ length: 600 }, () => ({ quantity: 'many' })) } });
  // Otherwise valid vault and saved-card requests whose expiry lies beyond what a date can hold.
  const card = { cardNumber: '4111111111111111', expiryDate: '12/30' };
  for (const far of [{ seconds: 1e12 }, { date: 8.64e15 }, { date: '+275760-09-13T00:00:00Z' }]) {
    bodies.push({ ...card, expireSeconds: far.seconds, expireDate: far.date });
    bodies.push({
      providerId: a.providerIds[0],
      paymentInformation: card,
      vaultCard: true,
      vaultExpireSeconds: far.seconds,
      vaultExpireDate: far.date,
    });
  }
  return bodies;
}

const JUNK_QUERIES = [
  'amount=abc&comment=%00',
  'Limit=-5&Skip=abc',
  'AddedAfter=2024-99-99&AmountLessThan=1e999',
  'Status[]=x&Limit[]=1',
  '%E0%A4%A=bad',
  'AddedAfter=-8640000000000000&AddedBefore=8640000000000000',
  'AddedAfter=0001-01-01&AddedBefore=9999-12-31T23:59:59Z',
];

describe('bad input never produces a 5xx', () => {
  it('refuses NUL characters and lone surrogates in otherwise valid requests that write', async () => {
    const valid = { amount: 10, providerId: a.providerIds[0], paymentInformation: { cardNumber: '4111111111111111', expiryDate: '12/30' } };
    for (const body of [
      { ...valid, reference: 'a\u0000b' },
      { ...valid, metadata: { note: '\u0000' } },
      // A lone surrogate, as JSON's "\ud800" gives: PostgreSQL refuses it in JSON and text alike.
      { ...valid, metadata: { note: '\ud800' } },
      { ...valid, metadata: { ['\udc00']: 'x' } },
      { ...valid, reference: 'a\ud800b' },
    ]) {
      const { status, body: error } = await a.api.post('/charge/card', body);
      expect(status).toBe(400);
      expect(error.code).toBe(90);
    }
    const { body: charge } = await a.api.post('/charge/card', valid);
    const refund = await a.api.delete(`/charge/${String(charge.chargeId)}?amount=1&comment=%00`);
    expect(refund.status).toBe(400);
  });

  it('answers a request target that is not a path with a 4xx', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(t.url, { method: 'OPTIONS', path: '*' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it.each(routes.map((r) => [r.method, r.path] as const))('%s %s', async (method, path) => {
    const concrete = path.replace(/\{\w+\}/g, 'no-such-id');
    const attempts: Array<Promise<{ status: number; text: string }>> = [];
    const send = (url: string, body?: string) =>
      fetch(`${t.url}${url}`, { method, headers: { 'x-secretkey': a.secretKey, 'content-type': 'application/json' }, body }).then(
        async (r) => ({ status: r.status, text: await r.text() }),
      );
    if (method === 'GET' || method === 'DELETE') {
      for (const query of JUNK_QUERIES) attempts.push(send(`${concrete}?${query}`));
    } else {
      for (const body of junkBodies()) attempts.push(send(concrete, JSON.stringify(body)));
      attempts.push(send(concrete, '{"amount": 1, "amount": {'));
    }
    for (const { status, text } of await Promise.all(attempts)) {
      expect(status, text.slice(0, 300)).toBeLessThan(500);
      if (status >= 400) expect(typeof (JSON.parse(text) as { code: unknown }).code).toBe('number');
    }
  });
});
