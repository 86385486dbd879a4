import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

let t: TestGateway;
let a: TestAccount;
let providerId: string;

beforeAll(async () => {
  t = await startTestGateway();
  // Not about timeouts: on the embedded database 20 racing requests slow the in-process acquirer.
  a = await createAccount(t, [{ ...CHEAP_DOMESTIC, timeoutMs: 10_000 }]);
  providerId = a.providerIds[0] ?? '';
});
afterAll(() => t.close());

async function charge(amount: number | string, capture = true): Promise<string> {
  const { status, body } = await a.api.post('/charge/card', { amount, providerId, capture, paymentInformation: card() });
  expect(status).toBe(201);
  return String(body.chargeId);
}

/** What the simulated acquirer recorded for a charge. */
async function acquirerRecord(chargeId: string) {
  const { body } = await a.api.get(`/charge/${chargeId}`);
  const response = await fetch(`${t.gateway.simulatorUrl}/v1/authorisations`);
  const { authorisations } = (await response.json()) as {
    authorisations: Array<{ id: string; captured: string; refunded: string; status: string }>;
  };
  const record = authorisations.find((x) => x.id === body.providerChargeId);
  if (!record) throw new Error('the acquirer has no record of this charge');
  return { captured: BigInt(record.captured), refunded: BigInt(record.refunded), status: record.status };
}

describe('capture', () => {
  it('captures an authorisation in full with POST /charge/{id}/capture', async () => {
    const id = await charge(50, false);
    const { status, body } = await a.api.post(`/charge/${id}/capture`, { amount: null });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'SUCCESS', amount: 50, authorisationAmount: 50 });
    expect(body.successDate).not.toBeNull();
    expect(await acquirerRecord(id)).toMatchObject({ captured: 5000n, status: 'captured' });
  });

  it('captures part of an authorisation with POST /charge/{id} (PHP client)', async () => {
    const id = await charge(50, false);
    const { status, body } = await a.api.post(`/charge/${id}`, { Amount: '30.25' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'SUCCESS', amount: 30.25, authorisationAmount: 50 });
  });

  it('refuses to capture more than was authorised, or twice', async () => {
    const id = await charge(50, false);
    const over = await a.api.post(`/charge/${id}/capture`, { amount: 50.01 });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe(77);
    expect((await a.api.post(`/charge/${id}/capture`, {})).status).toBe(200);
    const twice = await a.api.post(`/charge/${id}/capture`, {});
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe(54);
  });

  it('captures once when 20 captures race', async () => {
    const id = await charge(40, false);
    const results = await Promise.all(Array.from({ length: 20 }, () => a.api.post(`/charge/${id}/capture`, { amount: 40 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([400, 409]).toContain(r.status);
    expect(await acquirerRecord(id)).toMatchObject({ captured: 4000n });
  });
});

describe('void', () => {
  it('voids an authorisation with DELETE /charge/{id}/void', async () => {
    const id = await charge(12, false);
    const { status, body } = await a.api.delete(`/charge/${id}/void`);
    expect(status).toBe(200);
    expect(body.status).toBe('AUTHORISE_CANCELLED');
    expect(body.voidDate).not.toBeNull();
    expect((await acquirerRecord(id)).status).toBe('voided');
    expect((await a.api.post(`/charge/${id}/capture`, {})).body.code).toBe(54);
  });

  it('voids an authorisation with DELETE /charge/{id} (PHP client), but never in part', async () => {
    const id = await charge(12, false);
    const partial = await a.api.delete(`/charge/${id}?amount=5`);
    expect(partial.status).toBe(400);
    expect(partial.body.code).toBe(54);
    const { status, body } = await a.api.delete(`/charge/${id}`);
    expect(status).toBe(200);
    expect(body.status).toBe('AUTHORISE_CANCELLED');
  });

  it('refuses to void a captured charge', async () => {
    const id = await charge(12);
    const { status, body } = await a.api.delete(`/charge/${id}/void`);
    expect(status).toBe(400);
    expect(body.code).toBe(54);
  });
});

describe('refund', () => {
  it('refunds in part, then the rest, keeping a history', async () => {
    const id = await charge(15.5);
    const partial = await a.api.delete(`/charge/${id}?amount=5&comment=damaged`);
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 5, amount: 15.5 });
    expect(partial.body.refunds).toMatchObject([{ amount: 5, comment: 'damaged' }]);

    const rest = await a.api.delete(`/refund/${id}?Comment=rest`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'REFUND', refundedAmount: 15.5 });
    expect(rest.body.refunds).toMatchObject([
      { amount: 5, comment: 'damaged' },
      { amount: 10.5, comment: 'rest' },
    ]);
    expect(await acquirerRecord(id)).toMatchObject({ refunded: 1550n });
  });

  it('refunds the whole charge when no amount is given (an empty amount is refused: input-limits.test.ts)', async () => {
    const id = await charge(20);
    const { body } = await a.api.delete(`/charge/${id}?comment=`);
    expect(body).toMatchObject({ status: 'REFUND', refundedAmount: 20 });
  });

  it('refuses to refund more than is left, an authorisation, or an invalid amount', async () => {
    const id = await charge(10);
    expect((await a.api.delete(`/charge/${id}?amount=10.01`)).body.code).toBe(76);
    expect((await a.api.delete(`/charge/${id}?amount=0`)).body.code).toBe(74);
    expect((await a.api.delete(`/charge/${id}?amount=1.005`)).body.code).toBe(2);
    expect((await a.api.delete(`/charge/${id}?amount=abc`)).body.code).toBe(2);
    const authorised = await charge(10, false);
    const { status, body } = await a.api.delete(`/refund/${authorised}`);
    expect(status).toBe(400);
    expect(body.code).toBe(54);
  });

  it('never refunds more than the charge when 20 refunds race', async () => {
    const id = await charge(10);
    const results = await Promise.all(Array.from({ length: 20 }, () => a.api.delete(`/charge/${id}?amount=1`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    // A loser reads either a charge with too little left (76) or one already fully refunded (54).
    for (const r of results.filter((x) => x.status !== 200)) expect([54, 76]).toContain(r.body.code);
    const { body } = await a.api.get(`/charge/${id}`);
    expect(body).toMatchObject({ status: 'REFUND', refundedAmount: 10 });
    expect(body.refunds).toHaveLength(10);
    expect(await acquirerRecord(id)).toMatchObject({ refunded: 1000n });
  });

  it('stores refunds as integer minor units', async () => {
    const id = await charge('0.30');
    await a.api.delete(`/charge/${id}?amount=0.1`);
    await a.api.delete(`/charge/${id}?amount=0.2`);
    const rows = await t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id } });
    expect(rows).toMatchObject({ refundedAmount: 30n, capturedAmount: 30n, status: 'REFUND' });
  });
});

describe('unknown and foreign charges', () => {
  it('answers 404 for an id that does not exist or belongs to another account', async () => {
    // The other account made as operators make one, with `npm run account`.
    const other = await createAccount(t, undefined, { throughCommand: true });
    const id = await charge(10, false);
    for (const response of [
      await other.api.get(`/charge/${id}`),
      await other.api.post(`/charge/${id}/capture`, {}),
      await other.api.delete(`/charge/${id}/void`),
      await other.api.delete(`/charge/${id}?amount=1`),
      await a.api.get('/charge/0123456789abcdef0123456789abcdef'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(84);
    }
    expect((await a.api.get(`/charge/${id}`)).body.status).toBe('AUTHORISE');
  });
});
