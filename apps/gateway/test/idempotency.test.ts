import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

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

  it('answers 409 with Retry-After while the request that holds the key runs, and never runs it twice', async () => {
    const key = randomUUID();
    const body = { amount: 10, providerId, reference: 'idem-held', paymentInformation: card() };
    // The state a request of this process leaves while it runs: the key claimed, nothing bound yet.
    const account = await t.gateway.database.prisma.account.findUniqueOrThrow({ where: { id: a.accountId } });
    const claim = await t.gateway.services.idempotency.claim(account, key, { method: 'POST', path: '/charge/card' }, body);
    expect(claim.kind).toBe('new');
    const response = await fetch(`${t.url}/charge/card`, {
      method: 'POST',
      headers: { 'x-secretkey': a.secretKey, 'content-type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(409);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ code: 30, isRetryable: true });
    expect(await countCharges('idem-held')).toBe(0);
  });

  it('takes over at once a key whose process died before the request wrote anything, with the id chosen at the claim', async () => {
    const key = randomUUID();
    const body = { amount: 10, providerId, reference: 'idem-dead', paymentInformation: card() };
    const account = await t.gateway.database.prisma.account.findUniqueOrThrow({ where: { id: a.accountId } });
    const claim = await t.gateway.services.idempotency.claim(account, key, { method: 'POST', path: '/charge/card' }, body);
    if (claim.kind !== 'new') throw new Error('not claimed');
    // The process that held it is gone: no session holds its presence number.
    await t.gateway.database.prisma.idempotencyKey.update({
      where: { accountId_key: { accountId: a.accountId, key } },
      data: { holderProcess: t.gateway.database.presence().number + 1 },
    });
    const taken = await a.api.post('/charge/card', body, { 'Idempotency-Key': key });
    expect(taken.status).toBe(201);
    expect(taken.body.chargeId).toBe(claim.held.resourceId);
    expect(await a.api.post('/charge/card', body, { 'Idempotency-Key': key })).toEqual(taken);
    expect(await countCharges('idem-dead')).toBe(1);
  });

  it('never reverses a charge still in flight, even when its process is wrongly seen dead', async () => {
    // A slow acquirer: the repeat and the background work come while the provider call is out.
    const slow = await createAccount(t, [{ ...CHEAP_DOMESTIC, latency: { minMs: 1_500, maxMs: 1_500 }, timeoutMs: 10_000 }]);
    const key = randomUUID();
    const body = { amount: 10, providerId: slow.providerIds[0], reference: 'idem-in-flight', paymentInformation: card() };
    const charging = slow.api.post('/charge/card', body, { 'Idempotency-Key': key });
    const keyRow = { accountId_key: { accountId: slow.accountId, key } };
    await expect
      .poll(async () => (await t.gateway.database.prisma.idempotencyKey.findUnique({ where: keyRow }))?.resourceType)
      .toBe('charge');
    // Its process seen dead (its presence connection lost for a moment, say).
    await t.gateway.database.prisma.idempotencyKey.update({
      where: keyRow,
      data: { holderProcess: t.gateway.database.presence().number + 1 },
    });
    const repeat = await slow.api.post('/charge/card', body, { 'Idempotency-Key': key });
    expect(repeat).toMatchObject({ status: 409, body: { code: 30 } });
    await t.gateway.worker.runDue();
    const first = await charging;
    expect(first).toMatchObject({ status: 201, body: { status: 'SUCCESS' } });
    await t.gateway.worker.runDue();
    expect(await slow.api.post('/charge/card', body, { 'Idempotency-Key': key })).toEqual(first);
    expect((await slow.api.get(`/charge/${first.body.chargeId}`)).body).toMatchObject({ status: 'SUCCESS' });
    // And the acquirer still holds the payment: no reversal reached it behind the charge's back.
    await t.gateway.worker.runDue();
    const ledger = await fetch(`${t.gateway.simulatorUrl}/v1/authorisations?idempotencyKey=${String(first.body.chargeId)}:1`);
    const { authorisations } = (await ledger.json()) as { authorisations: Array<{ status: string }> };
    expect(authorisations.map((a) => a.status)).toEqual(['captured']);
  });

  it('makes a capture, a void and a refund once, answering a repeat as the first', async () => {
    const authorise = async () =>
      String((await a.api.post('/charge/card', { amount: 10, providerId, capture: false, paymentInformation: card() })).body.chargeId);
    const captured = await authorise();
    const capture = () => a.api.post(`/charge/${captured}/capture`, { amount: 6 }, { 'Idempotency-Key': `capture-${captured}` });
    const firstCapture = await capture();
    expect(firstCapture).toMatchObject({ status: 200, body: { status: 'SUCCESS', amount: 6 } });
    expect(await capture()).toEqual(firstCapture);
    const otherCapture = await a.api.post(`/charge/${captured}/capture`, { amount: 5 }, { 'Idempotency-Key': `capture-${captured}` });
    expect(otherCapture.status).toBe(422);

    const voided = await authorise();
    const voiding = () => a.api.delete(`/charge/${voided}`, { 'Idempotency-Key': `void-${voided}` });
    const firstVoid = await voiding();
    expect(firstVoid).toMatchObject({ status: 200, body: { status: 'AUTHORISE_CANCELLED' } });
    expect(await voiding()).toEqual(firstVoid);

    const refund = () => a.api.delete(`/charge/${captured}?amount=2`, { 'Idempotency-Key': `refund-${captured}` });
    const firstRefund = await refund();
    expect(firstRefund).toMatchObject({ status: 200, body: { status: 'PARTIAL_REFUND', refundedAmount: 2 } });
    expect(await refund()).toEqual(firstRefund);
    expect(await t.gateway.database.prisma.refund.count({ where: { chargeId: captured } })).toBe(1);
    // Another key refunds again: the key is what makes a repeat.
    expect((await a.api.delete(`/charge/${captured}?amount=2`, { 'Idempotency-Key': randomUUID() })).body).toMatchObject({
      refundedAmount: 4,
    });
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
