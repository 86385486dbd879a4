import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, createAccount, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';
import { startReceiver, type Receiver } from './webhook-receiver';

/**
 * Batches over REST: the whole request is checked before anything is stored, the answer comes at
 * once, and the rows are charged against their saved payment methods by the gateway's worker.
 * The crash of a worker mid-batch is in batch-crash.test.ts.
 */
let t: TestGateway;
let a: TestAccount;
let receiver: Receiver;

const INSUFFICIENT_FUNDS = '4000000000009995';
const HEADER = 'PaymentMethodId,Amount,Currency,Reference';
const RESULTS_HEADER =
  'PaymentMethodId,Amount,Currency,Reference,Status,TransactionId,FailureReason,GatewayErrorCode,GatewayErrorResponse,IsRetryable';

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

type Body = Record<string, unknown>;

/** Runs every due job (the batch's chunks, webhook deliveries) until none is left. */
async function drain() {
  while ((await t.gateway.worker.runDue()) > 0);
}

async function savedCard(number = VISA, account = a) {
  const { status, body } = await account.api.post('/payment_method/card', {
    providerId: account.providerIds[0],
    paymentInformation: card(number),
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return String(body.paymentMethodId);
}

const csv = (...lines: string[]) => [HEADER, ...lines].join('\n');

async function submit(fields: Body, account = a, headers?: Record<string, string>) {
  return account.api.post('/batch/transaction/payment_method', fields, headers);
}

async function submitted(batch: string, fields: Body = {}, account = a, count = batch.split('\n').length - 1) {
  const { status, body } = await submit({ count, description: 'test', batch, ...fields }, account);
  expect(status, JSON.stringify(body)).toBe(200);
  return String(body.batchId);
}

/** The results CSV as rows of fields (no field in these tests holds a comma). */
const rowsOf = (results: unknown) =>
  String(results)
    .split('\n')
    .map((line) => line.split(','));

describe('a batch', () => {
  it('is answered at once, CREATED, then charged row by row: results in input order, counters, charges linked to it', async () => {
    const approved = await savedCard();
    const declined = await savedCard(INSUFFICIENT_FUNDS);
    const removed = await savedCard();
    expect((await a.api.delete(`/payment_method/${removed}`)).status).toBe(200);
    const batch = [
      'paymentmethodid, amount ,Currency,REFERENCE',
      `${approved},15.50,aud,invoice-1`,
      `${declined},20,AUD,invoice-2`,
      '',
      `${removed},1,AUD,`,
      `"${approved}",0.05,AUD,"inv ""3"""`,
      `${approved},7,USD,invoice-5`,
      `unknown-method,3,AUD,invoice-6`,
    ].join('\r\n');

    const created = await submit({
      Count: 6,
      Description: 'November invoices',
      Batch: batch,
      Metadata: { run: '2026-11' },
    });
    expect(created.status).toBe(200);
    const batchId = String(created.body.batchId);
    expect(created.body).toEqual({
      batchId,
      count: 6,
      success: 0,
      failure: 0,
      description: 'November invoices',
      status: 'CREATED',
      progress: 0,
      dateAdded: expect.any(String),
      metadata: { run: '2026-11' },
    });

    // The results CSV is there from the start, its header first.
    const early = await a.api.get(`/batch/${batchId}`);
    expect(early.status).toBe(200);
    expect(String(early.body.results).split('\n')).toHaveLength(7);
    expect(String(early.body.results).split('\n')[0]).toBe(RESULTS_HEADER);

    await drain();
    const done = await a.api.get(`/batch/${batchId}`);
    expect(done.body).toMatchObject({ batchId, count: 6, success: 3, failure: 3, status: 'SUCCESS', progress: 1 });
    const charges = await a.api.get<{ charges: Body[]; count: number }>(`/charge?BatchId=${batchId}&SortBy=Reference`);
    const chargeOf = (reference: string) => charges.body.charges.find((c) => c.reference === reference);
    expect(rowsOf(done.body.results)).toEqual([
      RESULTS_HEADER.split(','),
      [approved, '15.5', 'AUD', 'invoice-1', 'SUCCESS', String(chargeOf('invoice-1')?.chargeId), '', '', '', ''],
      [declined, '20', 'AUD', 'invoice-2', 'FAILED', '', 'The card was declined: Insufficient funds', '51', 'Insufficient funds', 'false'],
      [removed, '1', 'AUD', '', 'FAILED', '', 'The payment method was removed', '', '', 'false'],
      [approved, '0.05', 'AUD', '"inv ""3"""', 'SUCCESS', String(chargeOf('inv "3"')?.chargeId), '', '', '', ''],
      // The AUD provider takes the USD row too, in USD.
      [approved, '7', 'USD', 'invoice-5', 'SUCCESS', String(chargeOf('invoice-5')?.chargeId), '', '', '', ''],
      ['unknown-method', '3', 'AUD', 'invoice-6', 'FAILED', '', 'Payment method not found', '', '', 'false'],
    ]);
    // The approved rows and the declined one made charges; the others never reached a provider.
    expect(charges.body.charges.map((c) => [c.reference, c.status, c.amount, c.currency])).toEqual([
      ['inv "3"', 'SUCCESS', 0.05, 'AUD'],
      ['invoice-1', 'SUCCESS', 15.5, 'AUD'],
      ['invoice-2', 'FAILED', 20, 'AUD'],
      ['invoice-5', 'SUCCESS', 7, 'USD'],
    ]);

    const status = await a.api.get(`/batch/${batchId}/status`);
    expect(status.body).toEqual({ ...created.body, success: 3, failure: 3, status: 'SUCCESS', progress: 1 });
  });

  it('writes text a spreadsheet would run as a formula with a leading quote in its results; amounts stay numbers', async () => {
    const approved = await savedCard();
    const batchId = await submitted(
      csv(
        `${approved},15.5,AUD,"=HYPERLINK(""http://evil.example"",""x"")"`,
        `${approved},2,AUD,-5`,
        `${approved},3,AUD,@SUM(A1)`,
        `${approved},4,AUD,+1`,
        `=1+2,5,AUD,a-b`,
        `${approved},6,AUD,"=HYPERLINK(""http://evil.example"",\n""y"")"`,
      ),
      {},
      a,
      6,
    );
    await drain();
    const results = String((await a.api.get(`/batch/${batchId}`)).body.results);
    const chargeIds = (await a.api.get<{ charges: Body[] }>(`/charge?BatchId=${batchId}`)).body.charges.map((c) => c.chargeId);
    expect(chargeIds).toHaveLength(5);
    // A formula over two lines (Papa Parse's own pattern let it through unescaped).
    expect(results).toMatch(/\n\S+,6,AUD,"'=HYPERLINK\(""http:\/\/evil\.example"",\n""y""\)",SUCCESS,\w+,,,,$/);
    const lines = results.split('\n').slice(0, -2);
    expect(lines.slice(1).map((line) => line.replace(/,SUCCESS,\w+,/, ',SUCCESS,<id>,'))).toEqual([
      `${approved},15.5,AUD,"'=HYPERLINK(""http://evil.example"",""x"")",SUCCESS,<id>,,,,`,
      `${approved},2,AUD,"'-5",SUCCESS,<id>,,,,`,
      `${approved},3,AUD,"'@SUM(A1)",SUCCESS,<id>,,,,`,
      `${approved},4,AUD,"'+1",SUCCESS,<id>,,,,`,
      `"'=1+2",5,AUD,a-b,FAILED,,Payment method not found,,,false`,
    ]);
  });

  it('is FAILED when no row could be charged', async () => {
    const declined = await savedCard(INSUFFICIENT_FUNDS);
    const batchId = await submitted(csv(`${declined},5,AUD,a`, `${declined},6,AUD,b`));
    await drain();
    expect((await a.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'FAILED', success: 0, failure: 2, progress: 1 });
  });

  it('is answered once per Idempotency-Key, and only to its own account', async () => {
    const method = await savedCard();
    const fields = { count: 1, description: 'once', batch: csv(`${method},1,AUD,once`) };
    const first = await submit(fields, a, { 'Idempotency-Key': 'batch-once' });
    const again = await submit(fields, a, { 'Idempotency-Key': 'batch-once' });
    expect(again).toEqual(first);
    expect((await a.api.get<{ count: number }>('/batch?Description=once')).body.count).toBe(1);

    const other = await createAccount(t);
    for (const path of [`/batch/${String(first.body.batchId)}`, `/batch/${String(first.body.batchId)}/status`]) {
      expect(await other.api.get(path)).toMatchObject({ status: 404, body: { code: 101 } });
    }
    expect((await other.api.get<{ count: number }>('/batch')).body.count).toBe(0);
    await drain();
  });
});

describe('a batch request that is not valid', () => {
  const cases: Array<[string, Body, number, Record<string, string>]> = [
    ['a description over 100 characters', { description: 'x'.repeat(101) }, 101, { field: 'description' }],
    ['a header other than the spec', { batch: 'PaymentMethodId,Amount,Reference\npm,1,x' }, 101, { line: '1', field: 'batch' }],
    ['no transaction', { count: 0, batch: HEADER }, 101, { field: 'batch' }],
    ['a count other than the lines', { count: 3 }, 101, { field: 'count' }],
    ['a line with three fields', { batch: csv('pm_1,1,AUD,a', 'pm_2,1,AUD') }, 102, { line: '3' }],
    ['an amount that is not a number', { batch: csv('pm_1,1,AUD,a', 'pm_2,ten,AUD,b') }, 102, { line: '3', field: 'Amount' }],
    ['a zero amount', { batch: csv('pm_1,0,AUD,a', 'pm_2,1,AUD,b') }, 102, { line: '2', field: 'Amount' }],
    ['cents in a currency without', { batch: csv('pm_1,100,JPY,a', 'pm_2,100.5,JPY,b') }, 102, { line: '3', field: 'Amount' }],
    ['an amount in exponent form', { batch: csv('pm_1,1,AUD,a', 'pm_2,1e3,AUD,b') }, 102, { line: '3', field: 'Amount' }],
    ['an amount in upper-case exponent form', { batch: csv('pm_1,1E2,AUD,a', 'pm_2,1,AUD,b') }, 102, { line: '2', field: 'Amount' }],
    ['an unknown currency', { batch: csv('pm_1,1,AUD,a', 'pm_2,1,ZZZ,b') }, 102, { line: '3', field: 'Currency' }],
    [
      'a reference over 40 characters',
      { batch: csv('pm_1,1,AUD,a', `pm_2,1,AUD,${'r'.repeat(41)}`) },
      102,
      { line: '3', field: 'Reference' },
    ],
    ['no payment method id', { batch: csv('pm_1,1,AUD,a', ' ,1,AUD,b') }, 102, { line: '3', field: 'PaymentMethodId' }],
    ['a quote left open', { batch: csv('pm_1,1,AUD,a', 'pm_2,1,AUD,"b') }, 102, { line: '3', field: 'batch' }],
    ['a card number as payment method', { batch: csv('pm_1,1,AUD,a', `${VISA},1,AUD,b`) }, 102, { line: '3', field: 'PaymentMethodId' }],
    [
      'more than 100,000 transactions',
      { count: 100_001, batch: csv(...Array.from({ length: 100_001 }, () => 'pm,1,AUD,')) },
      101,
      { field: 'batch' },
    ],
  ];

  it.each(cases)('is refused whole, nothing stored: %s', async (_name, fields, code, details) => {
    const b = await createAccount(t);
    const { status, body } = await submit({ count: 2, description: 'bad', batch: csv('pm_1,1,AUD,a', 'pm_2,1,AUD,b'), ...fields }, b);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code, resource: '/batch/transaction/payment_method', isRetryable: false });
    expect(body.details).toEqual({ ...details, reason: expect.any(String) });
    expect(String(body.message)).toContain((body.details as Body).reason);
    expect((await b.api.get<{ count: number }>('/batch')).body.count).toBe(0);
  });

  it('is refused without its required fields (90) and above 10 MB (413, an invalid batch: 101)', async () => {
    expect(await submit({ description: 'no count', batch: csv('pm_1,1,AUD,a') })).toMatchObject({ status: 400, body: { code: 90 } });
    expect(await submit({ count: 1, description: 'no batch' })).toMatchObject({ status: 400, body: { code: 90 } });
    const line = `${'p'.repeat(32)},1,AUD,${'r'.repeat(40)}`;
    const count = Math.ceil((10 * 1024 * 1024) / line.length);
    const huge = await submit({ count, description: 'huge', batch: `${HEADER}\n${`${line}\n`.repeat(count)}` });
    expect(huge).toMatchObject({
      status: 413,
      body: {
        code: 101,
        message: 'The request body is larger than 10 MB',
        resource: '/batch/transaction/payment_method',
        details: { field: 'batch', reason: 'The request body is larger than 10 MB' },
      },
    });
  });

  it('quotes at most 16 characters of a value, a card number in it masked', async () => {
    const currency = `${VISA}${'x'.repeat(100_000)}`;
    const { status, body } = await submit({ count: 1, description: 'echo', batch: csv(`pm_1,1,${currency},a`) });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 102, details: { line: '2', field: 'Currency' } });
    expect((body.details as Body).reason).toBe('Currency "411111******1111…" is not an ISO 4217 currency');
    expect(JSON.stringify(body).length).toBeLessThan(1000);
  });
});

describe('a chunk that cannot finish', () => {
  it('does not hold up the rest of its batch, and its row is charged once it can be', async () => {
    // A provider that waits for its answers: many charges at once on the embedded database take longer than 400 ms.
    const b = await createAccount(t, [{ ...CHEAP_DOMESTIC, timeoutMs: 10_000 }]);
    const method = await savedCard(VISA, b);
    // Chunks of 50 rows, two at a time: lines 1–50 and 51–100 first, then 101–120 in the first's lane.
    const rows = 120;
    const batchId = await submitted(csv(...Array.from({ length: rows }, (_, n) => `${method},1,AUD,lane-${n + 1}`)), {}, b);
    const { prisma } = t.gateway.database;
    // The first row's charge is still being made (as a debit awaiting settlement): its chunk fails
    // and waits for a retry, minutes away.
    const first = await prisma.batchRow.findFirstOrThrow({ where: { batchId, line: 1 } });
    await prisma.charge.create({
      data: {
        id: first.chargeId,
        accountId: b.accountId,
        batchId,
        status: 'PROCESSING',
        paymentType: 'BANK_ACCOUNT',
        currency: 'AUD',
        amount: 100n,
      },
    });
    await drain();
    expect((await b.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'IN_PROGRESS', success: rows - 1, failure: 0 });
    expect(await prisma.job.findUniqueOrThrow({ where: { dedupeKey: `batch:${batchId}:0` } })).toMatchObject({ status: 'PENDING' });

    // The charge made, the first chunk's retry records the row, once, and the batch is done.
    await prisma.charge.update({ where: { id: first.chargeId }, data: { status: 'SUCCESS' } });
    await prisma.job.update({ where: { dedupeKey: `batch:${batchId}:0` }, data: { runAt: new Date() } });
    await drain();
    expect((await b.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'SUCCESS', success: rows, progress: 1 });
    const charges = await b.api.get<{ count: number }>(`/charge?BatchId=${batchId}&Limit=1`);
    expect(charges.body.count).toBe(rows);
  });
});

describe('a chunk that fails for good', () => {
  it('records the rows it never charged as FAILED, so no late run can charge them, and the batch ends', async () => {
    const b = await createAccount(t);
    const method = await savedCard(VISA, b);
    const rows = 3;
    const batchId = await submitted(csv(...Array.from({ length: rows }, (_, n) => `${method},2.5,AUD,given-up-${n + 1}`)), {}, b);
    // Its last attempt (the 25th) loses its lease before charging anything.
    const chargeChunk = t.gateway.services.jobHandlers['batch.charge-rows']!;
    const lastAttempt = { jobId: 'last', attempt: 25, signal: AbortSignal.abort(), complete: async () => {} };
    await expect(chargeChunk({ batchId, chunk: 0 }, lastAttempt)).rejects.toThrow(/wait for their charges/);

    const status = await b.api.get(`/batch/${batchId}/status`);
    expect(status.body).toMatchObject({ status: 'FAILED', success: 0, failure: rows, progress: 1 });
    const results = String((await b.api.get(`/batch/${batchId}`)).body.results)
      .trim()
      .split('\n')
      .slice(1);
    expect(results).toHaveLength(rows);
    for (const line of results) expect(line).toMatch(/,given-up-\d,FAILED,,The gateway could not charge this row .*,,,true$/);

    // A run that had read the rows before (its worker stalled) cannot charge one now: its charge id is taken.
    const { prisma } = t.gateway.database;
    const account = await prisma.account.findUniqueOrThrow({ where: { id: b.accountId } });
    const row = await prisma.batchRow.findFirstOrThrow({ where: { batchId, line: 1 } });
    const late = { paymentMethodId: method, amount: '2.5', currency: 'AUD', reference: 'given-up-1' };
    await expect(
      t.gateway.services.charges.createPaymentMethodCharge(account, late, { chargeId: row.chargeId, batchId }),
    ).rejects.toThrow();
    await drain();
    const charges = await b.api.get<{ charges: Array<{ status: string }>; count: number }>(`/charge?BatchId=${batchId}`);
    expect(charges.body.count).toBe(rows);
    expect(charges.body.charges.map((c) => c.status)).toEqual(Array(rows).fill('FAILED'));
    // They name the row's payment method, so a search by it finds them.
    expect((await b.api.get<{ count: number }>(`/charge?PaymentMethodId=${method}`)).body.count).toBe(rows);
    expect((await b.api.get(`/batch/${batchId}/status`)).body).toMatchObject({ status: 'FAILED', failure: rows });
  });
});

describe('a row whose charge a dead run made', () => {
  it('takes its outcome from that charge, even if its payment method was removed since', async () => {
    const b = await createAccount(t);
    const method = await savedCard(VISA, b);
    const batchId = await submitted(csv(`${method},1,AUD,made-before`), {}, b);
    // What a run that died after the provider call leaves: the row's charge PROCESSING.
    const { prisma } = t.gateway.database;
    const row = await prisma.batchRow.findFirstOrThrow({ where: { batchId, line: 1 } });
    await prisma.charge.create({
      data: {
        ...{ id: row.chargeId, accountId: b.accountId, batchId, status: 'PROCESSING', paymentType: 'CARD' },
        ...{ currency: 'AUD', amount: 100n, providerId: b.providerIds[0], paymentMethodId: method },
      },
    });
    expect((await b.api.delete(`/payment_method/${method}`)).status).toBe(200);
    await drain();
    // Resumed with the same keys (the method's card is gone, so the acquirer refuses it): row and charge agree.
    const charge = await prisma.charge.findUniqueOrThrow({ where: { id: row.chargeId } });
    const recorded = await prisma.batchRow.findUniqueOrThrow({ where: { id: row.id } });
    expect(charge.status).not.toBe('PROCESSING');
    expect(recorded.status).toBe(charge.status === 'FAILED' ? 'FAILED' : 'SUCCESS');
    expect(recorded.failureReason ?? '').not.toMatch(/removed/);
  });
});

describe('the batch search', () => {
  it('matches Description exactly and dates, pages newest first, in any parameter casing', async () => {
    const b = await createAccount(t);
    const method = await savedCard(VISA, b);
    const ids: string[] = [];
    for (const description of ['payroll', 'payroll', 'refunds', 'payroll'])
      ids.push(await submitted(csv(`${method},1,AUD,x`), { description }, b));
    const all = await b.api.get<{ batches: Body[]; count: number; limit: number; skip: number }>('/batch');
    expect(all.body).toMatchObject({ count: 4, limit: 20, skip: 0 });
    expect(all.body.batches.map((x) => x.batchId)).toEqual([...ids].reverse());
    expect(all.body.batches[0]).not.toHaveProperty('results');

    const payroll = await b.api.get<{ batches: Body[]; count: number }>('/batch?Description=payroll&Limit=2&Skip=1');
    expect(payroll.body).toMatchObject({ count: 3, limit: 2, skip: 1 });
    expect(payroll.body.batches.map((x) => x.batchId)).toEqual([ids[1], ids[0]]);
    expect((await b.api.get<{ count: number }>('/batch?description=PAYROLL')).body.count).toBe(0);

    const first = new Date(String(all.body.batches[3]!.dateAdded));
    const after = encodeURIComponent(first.toISOString());
    expect((await b.api.get<{ count: number }>(`/batch?addedAfter=${after}`)).body.count).toBe(3);
    expect((await b.api.get<{ count: number }>(`/batch?AddedBefore=${after}`)).body.count).toBe(0);
    const later = new Date(first.getTime() + 1).toISOString();
    expect((await b.api.get<{ count: number }>(`/batch?AddedBefore=${encodeURIComponent(later)}`)).body.count).toBe(1);
    await drain();
  });
});

describe('batch webhooks', () => {
  it('report each status change to the request webhook (webhookConfig, as .NET sends it) and to Batch subscribers', async () => {
    const b = await createAccount(t);
    const subscribed = await b.api.post('/webhook/subscription', { url: receiver.url('/subscribed'), types: ['batch'] });
    expect(subscribed.status).toBe(200);
    const method = await savedCard(VISA, b);
    const batchId = await submitted(
      csv(`${method},1,AUD,x`, `${method},2,AUD,y`),
      { WebhookConfig: { Url: receiver.url('/own'), Authorization: 'Bearer batch-secret' } },
      b,
    );
    await drain();
    for (const path of ['/own', '/subscribed']) {
      // Deliveries run in parallel and may arrive in any order: put them in the batch's order.
      const received = receiver
        .at(path)
        .filter((r) => r.data.batchId === batchId)
        .sort((x, y) => Number(x.data.progress) - Number(y.data.progress));
      expect(received.map((r) => [r.meta.type, r.meta.eventType, r.data.status, r.data.progress])).toEqual([
        ['batch', 'batch.status.changed', 'IN_PROGRESS', 0],
        ['batch', 'batch.status.changed', 'SUCCESS', 1],
      ]);
      expect(received[1]!.data).toMatchObject({ batchId, count: 2, success: 2, failure: 0 });
      expect(received[1]!.data).not.toHaveProperty('results');
    }
    expect(receiver.at('/own')[0]!.headers.authorization).toBe('Bearer batch-secret');
  });
});
