import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, startTestGateway, type TestGateway } from './harness';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

describe('secret key', () => {
  it.each([
    ['no key', undefined],
    ['a wrong key', 'sk_wrong'],
  ])('answers 401 with the error body for %s', async (_name, key) => {
    const { status, body } = await client(t.url, key).get('/charge');
    expect(status).toBe(401);
    expect(body).toMatchObject({
      code: 40,
      isRetryable: false,
      resource: '/charge',
      details: null,
      gatewayCode: null,
      gatewayMessage: null,
    });
    expect(typeof body.message).toBe('string');
  });

  it('is stored only as a hash', async () => {
    const a = await createAccount(t);
    const rows = await t.gateway.database.prisma.$queryRawUnsafe<Array<{ row: string }>>(
      'SELECT row_to_json(a)::text AS row FROM "Account" a',
    );
    expect(rows.some((r) => r.row.includes(a.secretKey))).toBe(false);
    expect((await a.api.get('/charge')).status).toBe(200);
  });
});

describe('routing', () => {
  it('answers an unknown path with a 404 error body', async () => {
    const a = await createAccount(t);
    const { status, body } = await a.api.get('/no/such/thing');
    expect(status).toBe(404);
    expect(body.resource).toBe('/no/such/thing');
  });

  it('accepts a trailing slash and ignores SDK headers', async () => {
    const a = await createAccount(t);
    const { status } = await a.api.get('/charge/', {
      'sdk-version': '4.5.7',
      'user-agent': 'PayFURL-Java-SDK',
      'content-type': 'application/json',
    });
    expect(status).toBe(200);
  });
});
