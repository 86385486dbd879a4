import { startFakeNab, type FakeNab } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { heldPayment, NAB_CREDENTIALS, NAB_SDK_PROVIDER } from './real-providers';
import { card, CHEAP_DOMESTIC, createAccount, staffOf, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';

/**
 * A nab_transact provider over REST, against the fake NAB Transact (held to a schema of NAB's
 * documented XML API): created as the public SDKs' tests create it, without a call to NAB; charged,
 * captured, voided and refunded; declines by NAB's test amounts; a lost answer, and NAB's word
 * that the bank's was lost.
 */
let t: TestGateway;
let fake: FakeNab;
let a: TestAccount;
let providerId: string;
/** The gateway's clock runs ahead by this much, for the jobs due later (confirmations, the sweep). */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const SDK_PROVIDER = NAB_SDK_PROVIDER;
/** A provider that gives up on NAB after half a second, for the lost answers. */
const SLOW_NAB = {
  type: 'nab_transact',
  name: 'NAB slow',
  currency: 'AUD',
  country: 'AUS',
  environment: 'SANDBOX',
  credentials: SDK_PROVIDER.authenticationParameters,
  timeoutMs: 500,
};
let slow: string;
const CARD = { cardNumber: '4444333322221111', expiryDate: '12/30', ccv: '123', cardholder: 'Test Payer' };

beforeAll(async () => {
  fake = await startFakeNab({ merchantId: NAB_CREDENTIALS.MerchantId, password: NAB_CREDENTIALS.Password });
  t = await startTestGateway({ providerEndpoints: { nab_transact: fake.url }, clock });
  a = await createAccount(t, [SLOW_NAB]);
  slow = a.providerIds[0] ?? '';
  const created = await a.api.post('/provider', SDK_PROVIDER);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  providerId = String(created.body.providerId);
});
afterEach(() => expect(fake.violations).toEqual([]));
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const charge = (fields: Record<string, unknown> = {}) =>
  a.api.post('/charge/card', { amount: 10, currency: 'AUD', providerId, paymentInformation: CARD, ...fields });
let staffClient: Awaited<ReturnType<typeof staffOf>> | undefined;
/** The account's staff, signed in to the dashboard (once per file). */
const staffOfA = async () => (staffClient ??= await staffOf(t, a.accountId));
/** Lets the jobs due later (confirmations, 2 minutes on) and the sweep of abandoned charges run. */
async function runBackgroundWork() {
  offsetMs += 3 * 60_000;
  for (let round = 0; round < 10 && (await t.gateway.worker.runDue()) > 0; round += 1);
  await t.gateway.services.charges.sweepAbandoned();
}
const held = (chargeId: string) => fake.transactions().filter((x) => x.purchaseOrderNo.startsWith(`${chargeId}:`));
/** Submits a batch of `lines` (PaymentMethodId,Amount,Currency,Reference) for `account`, with a webhook of its own so that its events are kept. */
async function submitBatch(account: TestAccount, lines: string[]) {
  const created = await account.api.post('/batch/transaction/payment_method', {
    count: lines.length,
    description: 'held',
    batch: ['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n'),
    webhook: { url: 'http://127.0.0.1:9/batch' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return String(created.body.batchId);
}

describe('a nab_transact provider', () => {
  it('is created and deleted as the SDKs do, without a call to NAB, and listed among the provider types', async () => {
    const before = fake.requests.length;
    const created = await a.api.post('/provider', SDK_PROVIDER);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(JSON.stringify(created.body)).not.toContain('abcd1234');
    const deleted = await a.api.delete(`/provider/${String(created.body.providerId)}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(fake.requests.length).toBe(before);
    const types = await a.api.get<{ providerTypes?: unknown[] } & Record<string, unknown>>('/info/provider_types');
    expect(JSON.stringify(types.body)).toContain('nab_transact');
  });

  it('refuses a malformed merchant id, naming it', async () => {
    const refused = await a.api.post('/provider', { ...SDK_PROVIDER, authenticationParameters: { MerchantId: 'XYZ10', Password: 'x' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('MerchantId');
  });

  it('takes a purchase in cents, refunds part of it, then the rest', async () => {
    const sale = await charge({ amount: 12 });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body).toMatchObject({ status: 'SUCCESS', amount: 12, provider: { type: 'nab_transact' } });
    const chargeId = String(sale.body.chargeId);
    expect(held(chargeId)).toEqual([expect.objectContaining({ authorised: 1200, captured: 1200, refunded: 0 })]);
    const partial = await a.api.delete(`/refund/${chargeId}?amount=4`);
    expect(partial.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 4 });
    const rest = await a.api.delete(`/refund/${chargeId}`);
    expect(rest.body).toMatchObject({ status: 'REFUND', refundedAmount: 12 });
    expect(held(chargeId)).toEqual([expect.objectContaining({ refunded: 1200 })]);
  });

  it('pre-authorises, completes part of it; voids another', async () => {
    const authorised = await charge({ amount: 20, capture: false });
    expect(authorised.body).toMatchObject({ status: 'AUTHORISE' });
    const chargeId = String(authorised.body.chargeId);
    const captured = await a.api.post(`/charge/${chargeId}/capture`, { amount: 15 });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(held(chargeId)).toEqual([expect.objectContaining({ authorised: 2000, captured: 1500 })]);
    const other = String((await charge({ capture: false })).body.chargeId);
    const voided = await a.api.delete(`/charge/${other}/void`);
    expect(voided.body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    expect(held(other)).toEqual([expect.objectContaining({ reversed: true })]);
  });

  it('answers NAB’s test declines with the catalogue code, and a currency NAB does not take with 400 before any call', async () => {
    const declined = await charge({ amount: 10.51 });
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ code: 15, isRetryable: false });
    const before = fake.requests.length;
    const usd = await charge({ currency: 'USD' });
    expect(usd.status).toBe(400);
    expect(fake.requests.length).toBe(before);
  });

  it('keeps a card at NAB and charges it merchant-initiated', async () => {
    const saved = await a.api.post('/payment_method/card', { providerId, paymentInformation: CARD });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(fake.storedCards()).toContain(saved.body.providerPaymentMethodId);
    const repeat = await a.api.post('/charge/payment_method', {
      paymentMethodId: saved.body.paymentMethodId,
      amount: 7,
      currency: 'AUD',
      recurring: true,
    });
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(201);
    expect(held(String(repeat.body.chargeId))).toEqual([expect.objectContaining({ captured: 700, recurring: true })]);
  });

  // NAB may hold the payment after either, and without its txnID the gateway cannot reverse it.
  it.each([
    ['never gave', 'hang', () => fake.hangNext('0', { processed: true })],
    [
      'gave as 111 without a transaction id (the bank’s answer lost)',
      '111',
      () => fake.failNext('0', { kind: 'declined', responseCode: '111' }),
    ],
  ])('holds a charge whose answer NAB %s for staff, never failing it on a guess, and never sends it again', async (_how, name, fault) => {
    fault();
    const key = { 'Idempotency-Key': `nab-lost-${name}-${Date.now()}` };
    const body = { amount: 10, currency: 'AUD', providerId: slow, paymentInformation: CARD };
    const lost = await a.api.post('/charge/card', body, key);
    expect(lost.status, JSON.stringify(lost.body)).toBe(400);
    expect(lost.body).toMatchObject({ code: 80, isRetryable: false, gatewayCode: 'OUTCOME_UNKNOWN' });
    const chargeId = String((lost.body.details as Record<string, string>).chargeId);
    const row = await t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId }, include: { unknownOutcomes: true } });
    expect(row.status).toBe('PROCESSING');
    // Staff look it up at NAB by the purchase order number the payment carried.
    expect(row.unknownOutcomes).toEqual([heldPayment(chargeId, 1000n)]);
    expect(t.logs.join('')).toContain('outcome unknown at the provider');
    // The repeat of the key is answered the same, and sends nothing.
    const sent = fake.requests.length;
    const repeat = await a.api.post('/charge/card', body, key);
    expect(repeat.body).toMatchObject({ code: 80, isRetryable: false, gatewayCode: 'OUTCOME_UNKNOWN' });
    // The sweep of abandoned charges (after the 2 minutes a charge may take) leaves it to staff.
    await runBackgroundWork();
    expect(fake.requests.length).toBe(sent);
    expect((await t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).status).toBe('PROCESSING');
    expect(held(chargeId)).toEqual([expect.objectContaining({ reversed: false, captured: 1000 })]);
  });

  it('holds a refund whose answer NAB never gave, with its reservation, and nothing in the background sends it again', async () => {
    const sale = await charge({ amount: 30, providerId: slow });
    const chargeId = String(sale.body.chargeId);
    fake.hangNext('4', { processed: true });
    const lost = await a.api.delete(`/refund/${chargeId}?amount=10`);
    expect(lost.status, JSON.stringify(lost.body)).toBe(400);
    expect(lost.body).toMatchObject({ code: 80, isRetryable: false, gatewayCode: 'OUTCOME_UNKNOWN' });
    const refundId = String((lost.body.details as Record<string, string>).refundId);
    const db = t.gateway.database.prisma;
    expect(await db.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({ status: 'PENDING', amount: 1000n });
    expect(await db.unknownOutcome.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      operation: 'refund',
      refundId,
      providerReference: `${chargeId}:1`,
    });
    // What is left to refund still counts the held refund: only 20.00 more can be asked for.
    expect((await a.api.delete(`/refund/${chargeId}?amount=20.01`)).status).toBe(400);
    const sent = fake.requests.length;
    await runBackgroundWork();
    expect(fake.requests.length).toBe(sent);
    expect(held(chargeId)).toEqual([expect.objectContaining({ refunded: 1000 })]);
  });

  it('lists held calls for staff, who settle each as they found it at NAB: a sale made, an authorisation made, a refund not made', async () => {
    const staff = await staffOfA();
    const lose = async (txnType: string, fields: Record<string, unknown>) => {
      fake.hangNext(txnType, { processed: true });
      const lost = await charge({ providerId: slow, ...fields });
      expect(lost.body).toMatchObject({ code: 80, gatewayCode: 'OUTCOME_UNKNOWN' });
      return String((lost.body.details as Record<string, string>).chargeId);
    };
    const saleId = await lose('0', { amount: 11 });
    const authId = await lose('10', { amount: 13, capture: false });
    const listed = await staff.query<Array<Record<string, unknown>>>('dashboard.unknownOutcomes', {});
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ chargeId: saleId, operation: 'payment', amount: 11, currency: 'AUD', providerReference: `${saleId}:1` }),
        expect.objectContaining({ chargeId: authId, operation: 'authorisation', amount: 13, resolvedAt: null }),
      ]),
    );
    // A charge's page asks for its own only.
    const ofSale = await staff.query<Array<Record<string, unknown>>>('dashboard.unknownOutcomes', { chargeId: saleId });
    expect(ofSale.data.map((h) => h.chargeId)).toEqual([saleId]);

    // A sale made: staff give NAB's txnID; the charge is a SUCCESS that refunds at NAB by it.
    const [sale] = held(saleId);
    const noId = await staff.mutate('dashboard.settleUnknownOutcome', { id: `${saleId}:1`, made: true });
    expect(noId.status).toBe(400);
    const settled = await staff.mutate('dashboard.settleUnknownOutcome', { id: `${saleId}:1`, made: true, transactionId: sale?.txnID });
    expect(settled.status, JSON.stringify(settled)).toBe(200);
    expect((await a.api.get(`/charge/${saleId}`)).body).toMatchObject({ status: 'SUCCESS', amount: 11 });
    const otherwise = await staff.mutate('dashboard.settleUnknownOutcome', { id: `${saleId}:1`, made: false });
    expect(otherwise.status).toBe(409);

    // An authorisation made: its preauthID too, then it completes at NAB.
    const [auth] = held(authId);
    const authSettled = await staff.mutate('dashboard.settleUnknownOutcome', {
      id: `${authId}:1`,
      made: true,
      transactionId: auth?.txnID,
      authorisationId: auth?.preauthID,
    });
    expect(authSettled.status, JSON.stringify(authSettled)).toBe(200);
    expect((await a.api.get(`/charge/${authId}`)).body).toMatchObject({ status: 'AUTHORISE' });
    const captured = await a.api.post(`/charge/${authId}/capture`, {});
    expect(captured.body).toMatchObject({ status: 'SUCCESS', amount: 13 });
    expect(held(authId)).toEqual([expect.objectContaining({ captured: 1300 })]);

    // A refund NAB never made: its reservation is released, and the money can be refunded again.
    fake.hangNext('4', { processed: false });
    const refund = await a.api.delete(`/refund/${saleId}?amount=5`);
    const refundId = String((refund.body.details as Record<string, string>).refundId);
    const notMade = await staff.mutate('dashboard.settleUnknownOutcome', { id: refundId, made: false });
    expect(notMade.status, JSON.stringify(notMade)).toBe(200);
    expect(await t.gateway.database.prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({ status: 'FAILED' });
    expect((await a.api.delete(`/refund/${saleId}`)).body).toMatchObject({ status: 'REFUND', refundedAmount: 11 });
    const settledList = await staff.query<Array<Record<string, unknown>>>('dashboard.unknownOutcomes', { settled: true });
    expect(settledList.data).toHaveLength(3);
    // Who settled each, as people read it (the dashboard's "Recently settled").
    expect(settledList.data.find((row) => row.id === refundId)).toMatchObject({
      operation: 'refund',
      resolution: 'not_made',
      resolvedBy: expect.stringMatching(/^staff:/),
      resolvedByStaff: { name: 'Staff', email: `staff-${a.accountId}@example.com` },
    });

    // Another account's staff see none of it, and cannot settle it.
    const b = await createAccount(t, []);
    const theirs = await staffOf(t, b.accountId);
    expect((await theirs.query<unknown[]>('dashboard.unknownOutcomes', {})).data).toEqual([]);
    expect((await theirs.mutate('dashboard.settleUnknownOutcome', { id: refundId, made: true, transactionId: '1' })).status).toBe(404);
  });

  it('holds a subscription payment NAB never answered: not billed again, looked at hourly, counted once staff find it made', async () => {
    const saved = await a.api.post('/payment_method/card', { providerId: slow, paymentInformation: CARD });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    fake.hangNext('trigger', { processed: true });
    const created = await a.api.post('/subscription/payment_method', {
      paymentMethodId: saved.body.paymentMethodId,
      amount: 9,
      currency: 'AUD',
      interval: 'Month',
      frequency: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const subscriptionId = String(created.body.subscriptionId);
    const db = t.gateway.database.prisma;
    const billed = async () => db.charge.findMany({ where: { subscriptionId }, include: { unknownOutcomes: true } });
    const later = async (minutes: number) => {
      offsetMs += minutes * 60_000;
      for (let round = 0; round < 10 && (await t.gateway.worker.runDue()) > 0; round += 1);
    };
    await later(0);
    const [charge, ...others] = await billed();
    expect(others).toEqual([]);
    expect(charge).toMatchObject({ status: 'PROCESSING', unknownOutcomes: [expect.objectContaining({ operation: 'payment' })] });
    const chargeId = charge?.id ?? '';
    const sent = fake.requests.length;
    // An hour on, and another: looked at again, never sent again, nothing counted.
    await later(61);
    await later(61);
    expect(fake.requests.length).toBe(sent);
    expect(await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).toMatchObject({ paymentCount: 0, status: 'Active' });
    // Each look is a job of its own that ends well: none spends the retries a failing job has (they run out in days).
    const looks = await db.job.findMany({
      where: { queue: 'subscription.bill', dedupeKey: { startsWith: `subscription:${subscriptionId}:` } },
    });
    expect(looks.length).toBeGreaterThanOrEqual(3);
    expect(looks.filter((j) => j.attempts > 1 || j.lastError !== null)).toEqual([]);
    // One chain of looks, each numbered: a look run again would be refused by its number's key.
    const numbered = looks.flatMap((j) => j.dedupeKey?.match(/:held:(\d+)$/)?.[1] ?? []).map(Number);
    expect(numbered.sort()).toEqual([1, 2, 3]);

    const staff = await staffOfA();
    const [payment] = held(chargeId);
    const settled = await staff.mutate('dashboard.settleUnknownOutcome', {
      id: `${chargeId}:1`,
      made: true,
      transactionId: payment?.txnID,
    });
    expect(settled.status, JSON.stringify(settled)).toBe(200);
    await later(61);
    expect(await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).toMatchObject({ paymentCount: 1, status: 'Active' });
    expect((await billed()).map((c) => c.status)).toEqual(['SUCCESS']);
    expect(held(chargeId)).toEqual([expect.objectContaining({ captured: 900, recurring: true })]);
  });

  it('holds a batch row NAB never answered as a failure not to repeat; once staff settle it, the row and the batch follow', async () => {
    const saved = await a.api.post('/payment_method/card', { providerId: slow, paymentInformation: CARD });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const db = t.gateway.database.prisma;
    /** A batch of one row of `amount` on the saved card, whose payment NAB takes (or not) and never answers. */
    async function heldBatch(amount: string, processed: boolean) {
      fake.hangNext('trigger', { processed });
      const batchId = await submitBatch(a, [`${String(saved.body.paymentMethodId)},${amount},AUD,held-${amount}`]);
      for (let round = 0; round < 10 && (await t.gateway.worker.runDue()) > 0; round += 1);
      expect((await a.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'FAILED', success: 0, failure: 1 });
      const row = await db.batchRow.findFirstOrThrow({ where: { batchId } });
      expect(row).toMatchObject({ status: 'FAILED', gatewayErrorCode: 'OUTCOME_UNKNOWN', isRetryable: false });
      return { batchId, chargeId: row.chargeId };
    }
    const resultOf = async (batchId: string) =>
      String((await a.api.get(`/batch/${batchId}`)).body.results)
        .split('\n')[1]
        ?.split(',');
    const staff = await staffOfA();

    const made = await heldBatch('7.00', true);
    const { dateCompleted } = await db.batch.findUniqueOrThrow({ where: { id: made.batchId } });
    const [payment] = held(made.chargeId);
    const settle = { id: `${made.chargeId}:1`, made: true, transactionId: payment?.txnID };
    const settled = await staff.mutate('dashboard.settleUnknownOutcome', settle);
    expect(settled.status, JSON.stringify(settled)).toBe(200);
    expect(await db.batchRow.findFirstOrThrow({ where: { batchId: made.batchId } })).toMatchObject({
      status: 'SUCCESS',
      failureReason: null,
      gatewayErrorCode: null,
      isRetryable: null,
    });
    expect((await a.api.get(`/batch/${made.batchId}/status`)).body).toMatchObject({ status: 'SUCCESS', success: 1, failure: 0 });
    expect(await resultOf(made.batchId)).toContain('SUCCESS');
    // Completed when its last row was recorded, not when staff settled it; the change is the batch's event.
    expect((await db.batch.findUniqueOrThrow({ where: { id: made.batchId } })).dateCompleted).toEqual(dateCompleted);
    const events = await db.webhookEvent.findMany({ where: { resourceId: made.batchId }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => (e.data as { status: string }).status)).toEqual(['IN_PROGRESS', 'FAILED', 'SUCCESS']);
    // Settled again the same way: counted once.
    expect((await staff.mutate('dashboard.settleUnknownOutcome', settle)).status).toBe(200);
    expect((await a.api.get(`/batch/${made.batchId}/status`)).body).toMatchObject({ status: 'SUCCESS', success: 1, failure: 0 });

    const notMade = await heldBatch('6.00', false);
    expect(held(notMade.chargeId)).toEqual([]);
    expect((await staff.mutate('dashboard.settleUnknownOutcome', { id: `${notMade.chargeId}:1`, made: false })).status).toBe(200);
    // Still a failure, now one the merchant may send again.
    const row = await db.batchRow.findFirstOrThrow({ where: { batchId: notMade.batchId } });
    expect(row).toMatchObject({ status: 'FAILED', isRetryable: true, failureReason: expect.stringContaining('never made the payment') });
    expect(row.gatewayErrorCode).not.toBe('OUTCOME_UNKNOWN');
    expect((await a.api.get(`/batch/${notMade.batchId}/status`)).body).toMatchObject({ status: 'FAILED', success: 0, failure: 1 });
  });

  it('records a held batch row as staff settled it when they settle it before its chunk is recorded', async () => {
    // The other row's acquirer takes 3 s: the chunk is recorded only after staff have settled the held one.
    const slowDummy = { ...CHEAP_DOMESTIC, name: 'Slow dummy', latency: { minMs: 3000, maxMs: 3000 }, timeoutMs: 10_000 };
    const b = await createAccount(t, [SLOW_NAB, slowDummy]);
    const methods = [];
    for (const [providerId, paymentInformation] of [
      [b.providerIds[0], CARD],
      [b.providerIds[1], card(VISA)],
    ] as const) {
      const saved = await b.api.post('/payment_method/card', { providerId, paymentInformation });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      methods.push(String(saved.body.paymentMethodId));
    }
    fake.hangNext('trigger', { processed: true });
    const batchId = await submitBatch(b, [`${methods[0]},5.00,AUD,nab`, `${methods[1]},5.00,AUD,dummy`]);
    const db = t.gateway.database.prisma;
    const running = t.gateway.worker.runDue();
    const heldRow = await db.batchRow.findFirstOrThrow({ where: { batchId, line: 1 } });
    await expect.poll(() => db.unknownOutcome.count({ where: { chargeId: heldRow.chargeId } }), { timeout: 2_500, interval: 20 }).toBe(1);
    const staff = await staffOf(t, b.accountId);
    const [payment] = held(heldRow.chargeId);
    const settled = await staff.mutate('dashboard.settleUnknownOutcome', {
      id: `${heldRow.chargeId}:1`,
      made: true,
      transactionId: payment?.txnID,
    });
    expect(settled.status, JSON.stringify(settled)).toBe(200);
    expect((await db.batchRow.findFirstOrThrow({ where: { batchId, line: 1 } })).status).toBe('CREATED');
    await running;
    expect(
      await db.batchRow.findMany({ where: { batchId }, orderBy: { line: 'asc' }, select: { status: true, gatewayErrorCode: true } }),
    ).toEqual([
      { status: 'SUCCESS', gatewayErrorCode: null },
      { status: 'SUCCESS', gatewayErrorCode: null },
    ]);
    expect((await b.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'SUCCESS', success: 2, failure: 0 });
  });

  it('holds a completion NAB never answered with its lease, and settles it made once: the same again changes nothing', async () => {
    const authorised = await charge({ amount: 25, capture: false, providerId: slow });
    const chargeId = String(authorised.body.chargeId);
    fake.hangNext('11', { processed: true });
    const lost = await a.api.post(`/charge/${chargeId}/capture`, { amount: 20 });
    expect(lost.body).toMatchObject({ code: 80, isRetryable: false, gatewayCode: 'OUTCOME_UNKNOWN' });
    // The lease is kept: no other completion or void meanwhile.
    expect((await a.api.delete(`/charge/${chargeId}`)).status).toBe(409);
    const staff = await staffOfA();
    // The completion is a transaction of its own: staff give its txnID, which the refund then quotes.
    expect((await staff.mutate('dashboard.settleUnknownOutcome', { id: `${chargeId}:capture`, made: true })).status).toBe(400);
    const completionTxnID = held(chargeId)[0]?.completionTxnID;
    const settle = { id: `${chargeId}:capture`, made: true, transactionId: completionTxnID };
    expect((await staff.mutate('dashboard.settleUnknownOutcome', settle)).status).toBe(200);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', amount: 20 });
    expect((await staff.mutate('dashboard.settleUnknownOutcome', settle)).status).toBe(200);
    expect((await staff.mutate('dashboard.settleUnknownOutcome', { ...settle, made: false })).status).toBe(409);
    expect(held(chargeId)).toEqual([expect.objectContaining({ captured: 2000 })]);
    expect((await a.api.delete(`/refund/${chargeId}`)).body).toMatchObject({ status: 'REFUND', refundedAmount: 20 });
  });

  it('resumes a charge that had moved on from NAB to its fallback without sending NAB’s attempt again', async () => {
    const b = await createAccount(t, [SLOW_NAB, CHEAP_DOMESTIC]);
    const [nabId, dummyId] = b.providerIds;
    const fallback = await b.api.post('/payment_method/card', { providerId: dummyId, paymentInformation: card(VISA) });
    const first = await b.api.post('/payment_method/card', {
      providerId: nabId,
      paymentInformation: CARD,
      fallbackPaymentMethodId: fallback.body.paymentMethodId,
    });
    // NAB refuses with 91 (it may pass later): the charge moves on to the fallback.
    const input = { paymentMethodId: String(first.body.paymentMethodId), amount: '10.91', currency: 'AUD', recurring: true };
    const made = await b.api.post('/charge/payment_method', input);
    expect(made.body).toMatchObject({ status: 'SUCCESS', providerId: dummyId, failedAttempts: [{ gatewayCode: '91' }] });
    const chargeId = String(made.body.chargeId);
    const toNab = () => fake.requests.filter((r) => r.body.includes(`${chargeId}:1`));
    expect(toNab()).toHaveLength(1);
    // As a run that died before writing the fallback's answer left it: its batch or billing resumes it.
    const db = t.gateway.database.prisma;
    await db.charge.update({ where: { id: chargeId }, data: { status: 'PROCESSING' } });
    const account = await db.account.findUniqueOrThrow({ where: { id: b.accountId } });
    await t.gateway.services.charges.resumePaymentMethodCharge(account, input, chargeId);
    expect(await db.charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({ status: 'SUCCESS', providerId: dummyId });
    expect(toNab()).toHaveLength(1);
  });

  it('records a resumed payment NAB approved from the approval kept, without sending it again or reversing it', async () => {
    const saved = await a.api.post('/payment_method/card', { providerId: slow, paymentInformation: CARD });
    const input = { paymentMethodId: String(saved.body.paymentMethodId), amount: '8.00', currency: 'AUD', recurring: true };
    const made = await a.api.post('/charge/payment_method', input);
    expect(made.body).toMatchObject({ status: 'SUCCESS' });
    const chargeId = String(made.body.chargeId);
    const db = t.gateway.database.prisma;
    const { providerChargeId } = await db.charge.findUniqueOrThrow({ where: { id: chargeId } });
    // As a run that died after NAB's answer (kept by the connector) but before writing it left it.
    await db.charge.update({ where: { id: chargeId }, data: { status: 'PROCESSING', providerChargeId: null, successDate: null } });
    const sent = fake.requests.length;
    const account = await db.account.findUniqueOrThrow({ where: { id: a.accountId } });
    await t.gateway.services.charges.resumePaymentMethodCharge(account, input, chargeId);
    expect(await db.charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({ status: 'SUCCESS', providerChargeId });
    expect(fake.requests.length).toBe(sent);
    expect(held(chargeId)).toEqual([expect.objectContaining({ captured: 800, reversed: false })]);
  });
});
