import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { card, CHEAP_DOMESTIC, createAccount, startTestGateway, VISA, within, type TestAccount, type TestGateway } from './harness';

/**
 * Issue 12 point 1, internal work: account A's batches on a slow dummy provider (each chunk takes
 * at least 10 s) would hold every internal slot of the process. They get at most their
 * account's share, so account B's batch still starts and completes, and B's CCV is erased, in
 * their normal times. On PostgreSQL, on the real clock and worker.
 */
const LATENCY_MS = 5_000;
const CCV_RETENTION_S = 2;
/** What "normal" allows here, on a busy 2-core machine: a few worker polls, far less than one of A's chunks. */
const PROMPT_MS = 15_000;

let t: TestGateway;
let a: TestAccount;
let b: TestAccount;

/** A batch of `rows` rows charging one saved card of `account`. */
async function batchOf(account: TestAccount, rows: number, label: string) {
  const method = await account.api.post('/payment_method/card', { providerId: account.providerIds[0], paymentInformation: card(VISA) });
  expect(method.status).toBe(201);
  const lines = Array.from({ length: rows }, (_, n) => `${String(method.body.paymentMethodId)},1.00,AUD,${label}-${n}`);
  const batch = await account.api.post('/batch/transaction/payment_method', {
    count: rows,
    description: label,
    batch: ['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n'),
  });
  expect(batch.status).toBe(200);
  return String(batch.body.batchId);
}

describe.skipIf(!inject('databaseServerUrl'))("one account's slow batches and another account's internal work", () => {
  beforeAll(async () => {
    t = await startTestGateway({ ccvRetentionSeconds: CCV_RETENTION_S });
    a = await createAccount(t, [{ ...CHEAP_DOMESTIC, latency: { minMs: LATENCY_MS, maxMs: LATENCY_MS }, timeoutMs: 30_000 }]);
    b = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("erases B's CCV and runs B's batch promptly while A's batches could fill every slot", async () => {
    const db = t.gateway.database.prisma;
    // Two batches of A: four chunks due at once, each of 100 rows, two rounds of 64 provider calls of 5 s.
    await batchOf(a, 1000, 'a1');
    await batchOf(a, 1000, 'a2');
    const runningOfA = () => db.job.count({ where: { queue: 'batch.charge-rows', status: 'RUNNING', groupKey: a.accountId } });
    await within(PROMPT_MS, async () => (await runningOfA()) >= 2);

    const vaulted = await b.api.post('/vault', { cardNumber: VISA, ccv: '123' });
    expect(vaulted.status).toBe(200);
    const batchB = await batchOf(b, 1, 'b');
    const [batchDone, ccvErased] = await Promise.all([
      within(PROMPT_MS, async () => (await b.api.get(`/batch/${batchB}`)).body.status === 'SUCCESS'),
      within(CCV_RETENTION_S * 1000 + PROMPT_MS, async () => {
        const item = await db.vaultItem.findUniqueOrThrow({ where: { id: String(vaulted.body.vaultId) } });
        return item.ccvErasedAt !== null;
      }),
    ]);
    console.log(`beside A's slow batches: B's batch done in ${batchDone} ms, CCV erased ${ccvErased} ms after asked`);
    // A never held more than its share, and its batches are still going: B did not wait for them to end.
    expect(await runningOfA()).toBeLessThanOrEqual(2);
    const pendingOfA = await db.batchRow.count({ where: { batch: { accountId: a.accountId }, processedAt: null } });
    expect(pendingOfA).toBeGreaterThan(1000);
  }, 90_000);
});
