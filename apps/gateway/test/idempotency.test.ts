import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

let t: TestGateway;
let a: TestAccount;
let providerId: string;

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  providerId = a.providerIds[0] ?? '';
});
afterAll(() => t.close());

const countCharges = (reference: string) => t.gateway.database.prisma.charge.count({ where: { accountId: a.accountId, reference } });

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, charging once', async () => {
    const key = randomUUID();
    const body = { amount: 10, providerId, reference: 'idem-replay', paymentInformation: card() };
    const first = await a.api.post('/charge/card', body, { 'Idempotency-Key': key });
    // Same body in another casing and key order is the same request.
    const second = await a.api.post(
      '/charge/card',
      { PaymentInformation: card(), Reference: 'idem-replay', ProviderId: providerId, Amount: 10 },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await countCharges('idem-replay')).toBe(1);
  });

  it('replays a decline too', async () => {
    const key = randomUUID();
    const body = { amount: 10, providerId, reference: 'idem-decline', paymentInformation: card('4000000000000002') };
    const first = await a.api.post('/charge/card', body, { 'Idempotency-Key': key });
    const second = await a.api.post('/charge/card', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(400);
    expect(second).toEqual(first);
    expect(await countCharges('idem-decline')).toBe(1);
  });

  it('refuses the same key with a different body', async () => {
    const key = randomUUID();
    await a.api.post(
      '/charge/card',
      { amount: 10, providerId, reference: 'idem-a', paymentInformation: card() },
      { 'Idempotency-Key': key },
    );
    const other = await a.api.post(
      '/charge/card',
      { amount: 11, providerId, reference: 'idem-a', paymentInformation: card() },
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe(30);
    expect(await countCharges('idem-a')).toBe(1);
  });

  it('charges once when concurrent requests share a key', async () => {
    const key = randomUUID();
    const body = { amount: 10, providerId, reference: 'idem-race', paymentInformation: card() };
    const results = await Promise.all(Array.from({ length: 10 }, () => a.api.post('/charge/card', body, { 'Idempotency-Key': key })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.status).toBe(409);
    expect(new Set(created.map((r) => r.body.chargeId)).size).toBe(1);
    expect(await countCharges('idem-race')).toBe(1);
  });

  it('keeps keys per account', async () => {
    const key = randomUUID();
    const other = await createAccount(t);
    const mine = await a.api.post('/charge/card', { amount: 10, providerId, paymentInformation: card() }, { 'Idempotency-Key': key });
    const theirs = await other.api.post(
      '/charge/card',
      { amount: 10, providerId: other.providerIds[0], paymentInformation: card() },
      { 'Idempotency-Key': key },
    );
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.chargeId).not.toBe(mine.body.chargeId);
  });
});
