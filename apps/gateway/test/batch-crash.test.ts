import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newMasterKey } from '@gateway/core';
import { openDatabase, type Charge } from '@gateway/db';
import { startSimulator, type Simulator } from '@gateway/providers';
import type { NewProvider } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount, startChildGateway, type ChildGateway } from '../bench/child-gateway';
import { card, CHEAP_DOMESTIC, client, createTestDatabase, VISA } from './harness';
import { nabRequestsOf, startRealProviders, type RealProviders, type RealType } from './real-providers';

/**
 * A gateway killed (SIGKILL) in the middle of a batch of 1,000 rows, then started again: every
 * row ends charged exactly once, by the acquirer's own record. The gateway runs as a child
 * process (src/main.ts through tsx); the simulated acquirer runs in this process, so it outlives
 * the gateway as a real one would, and keeps its ledger in a state file, read back at the end.
 * The same with a stripe, adyen and checkout provider (fewer rows), against the fake providers,
 * which also run in this process. And with NAB Transact, which cannot take a call twice: the rows
 * whose payment it never answered are held for staff, recorded FAILED not to be charged again
 * (docs/outcome-unknown.md); every other row is charged once, and none twice.
 */
const GATEWAY_DIR = fileURLToPath(new URL('..', import.meta.url));
const MAIN_TS = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const ROWS = 1000;
const METHODS = 10;

/** Cents NAB's test system approves (it answers with the cents as the bank's response code). */
const APPROVED_CENTS = [0, 8, 11, 16, 77];
/** Row n's amount in minor units: all different within any 97 rows, some with cents. */
const minorOf = (n: number) => BigInt((1 + (n % 97)) * 100 + APPROVED_CENTS[n % APPROVED_CENTS.length]!);
const amountOf = (n: number) => `${minorOf(n) / 100n}.${String(minorOf(n) % 100n).padStart(2, '0')}`;

/** A row as the batch recorded it, with its charge. */
interface Row {
  status: string;
  chargeId: string;
}

/** What differs between the acquirers a batch is killed at. */
interface Acquirer {
  rows: number;
  /**
   * What becomes of a row the dead gateway left without an answer: charged by sending it again with
   * the same keys, or held for staff, where the provider cannot take a call twice (NAB Transact).
   */
  afterKill: 'resent' | 'held';
  currency: string;
  provider: NewProvider;
  paymentInformation: Record<string, string>;
  env: Record<string, string>;
  /**
   * Called once the batch is part-way, before the kill: makes sure rows are charged and not yet
   * recorded when the gateway dies (`unrecorded` counts them now, those of a chunk opened within
   * the last `openedWithinMs` when given).
   */
  holdUnrecordedRows(unrecorded: (openedWithinMs?: number) => Promise<number>): Promise<void>;
  /** Checks the acquirer's own record: one payment per row charged, for the row's amount, under its charge's key. */
  check(rows: Row[]): Promise<void>;
  close(): Promise<void>;
}

/** The simulated acquirer, its ledger in a state file read back at the end. */
async function simulated(dir: string): Promise<Acquirer> {
  const stateFile = join(dir, 'acquirer.jsonl');
  let simulator: Simulator = await startSimulator({ stateFile });
  return {
    rows: ROWS,
    afterKill: 'resent',
    currency: 'AUD',
    // Acquirer latency, so that the kill finds provider calls in flight (a chunk of 100 rows makes 64
    // at once); a timeout far above it, as this process (the acquirer) is busy too: a row that timed
    // out would fail rather than be charged.
    provider: { ...CHEAP_DOMESTIC, latency: { minMs: 50, maxMs: 150 }, timeoutMs: 10_000 },
    paymentInformation: card(VISA),
    env: { GATEWAY_SIMULATOR_URL: simulator.url },
    // The latency keeps a chunk's calls in flight for a while (its rows are recorded only when all
    // of them are done), but the kill could still fall between two chunks: wait until one has just
    // opened. Its 100 rows take two rounds of calls of 50 ms or more, so it is still open at the kill.
    holdUnrecordedRows: async (unrecorded) => {
      await expect.poll(() => unrecorded(40), { timeout: 30_000, interval: 5 }).toBeGreaterThan(0);
    },
    async check(rows) {
      // The acquirer's record, as its state file keeps it: one captured authorisation per row,
      // for the row's amount, under the key of the row's charge (TransactionId).
      await simulator.close();
      simulator = await startSimulator({ stateFile });
      const authorisations = simulator.ledger.authorisations().filter((auth) => auth.reference?.startsWith('crash-'));
      const byReference = new Map(authorisations.map((auth) => [auth.reference, auth]));
      expect(authorisations).toHaveLength(ROWS);
      expect(byReference.size).toBe(ROWS);
      rows.forEach(({ chargeId }, n) => {
        expect(byReference.get(`crash-${n}`)).toMatchObject({ status: 'captured', amount: minorOf(n), idempotencyKey: `${chargeId}:1` });
      });
    },
    close: () => simulator.close(),
  };
}

/** The gatewayCode of a row held for staff (docs/outcome-unknown.md). */
const HELD = 'OUTCOME_UNKNOWN';

/** Whether a charge's first attempt was kept as sent (before it left) with nothing of an answer since. */
function sentUnanswered(charge: Pick<Charge, 'id' | 'attemptData'>): boolean {
  const kept = (charge.attemptData as Record<string, { providerData?: object }> | null)?.[`${charge.id}:1`];
  return kept?.providerData !== undefined && Object.keys(kept.providerData).length === 0;
}

let fakes: RealProviders;

/** A fake provider: it lives in this process, so its record outlives the gateway. */
function real(type: RealType): Acquirer {
  const provider = fakes.of(type);
  const afterKill = type === 'nab_transact' ? 'held' : 'resent';
  return {
    rows: 300,
    afterKill,
    currency: provider.currency,
    provider: provider.newProvider(),
    paymentInformation: provider.card(),
    env: { GATEWAY_PROVIDER_ENDPOINTS: `${type}=${fakes.endpoints[type]}` },
    // The fakes answer at once, so the kill could fall between two chunks: one payment the fake
    // makes but never answers holds its chunk (and the rows charged beside it) unrecorded.
    async holdUnrecordedRows() {
      const hanging = provider.hangNext('payment');
      await expect.poll(hanging, { timeout: 10_000, interval: 10 }).toBe(true);
    },
    async check(rows) {
      rows.forEach(({ status, chargeId }, n) => {
        const payments = provider.allPayments(chargeId);
        if (status === 'SUCCESS')
          expect(payments, `row ${n}`).toEqual([
            expect.objectContaining({ attempt: `${chargeId}:1`, authorised: Number(minorOf(n)), captured: Number(minorOf(n)) }),
          ]);
        else expect(payments.length, `row ${n}`).toBeLessThanOrEqual(1);
      });
      if (afterKill === 'held') {
        // Each row sent NAB once at most, and every row whose payment NAB never answered held.
        const sent = rows.map(({ chargeId }) => nabRequestsOf(fakes.nab_transact, chargeId, 'payment'));
        expect(sent.filter((requests) => requests.length > 1)).toEqual([]);
        const unanswered = rows.filter((_, n) => sent[n]!.some((request) => request.status !== 200));
        expect(unanswered.length).toBeGreaterThan(0);
        expect(unanswered.filter((row) => row.status !== 'FAILED')).toEqual([]);
      }
      expect(provider.violations()).toEqual([]);
    },
    close: async () => undefined,
  };
}

beforeAll(async () => {
  fakes = await startRealProviders();
});
afterAll(() => fakes?.close());

const acquirers: Array<[string, (dir: string) => Promise<Acquirer>]> = [
  ['the simulated acquirer', simulated],
  ['stripe', async () => real('stripe')],
  ['adyen', async () => real('adyen')],
  ['checkout', async () => real('checkout')],
  ['nab_transact', async () => real('nab_transact')],
];

// Two processes must share the database: the embedded one cannot be shared.
describe.skipIf(!inject('databaseServerUrl')).each(acquirers)('a gateway killed mid-batch at %s', (_name, acquirerOf) => {
  it('charges every row exactly once after a restart, or holds it for staff where it cannot know', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-crash-'));
    const acquirer = await acquirerOf(dir);
    const { rows, currency } = acquirer;
    const database = (await createTestDatabase())!;
    const masterKeys = `crash:${newMasterKey()}`;
    const gateways: ChildGateway[] = [];
    const db = await openDatabase({ url: database.url, poolSize: 2 });
    onTestFinished(async () => {
      for (const gateway of gateways) await gateway.kill();
      await db.close();
      await acquirer.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const startGateway = async () => {
      const gateway = await startChildGateway({
        args: ['--import', 'tsx', MAIN_TS],
        // `--import tsx` resolves from the working directory: this package has tsx.
        cwd: GATEWAY_DIR,
        databaseUrl: database.url,
        masterKeys,
        env: { ...acquirer.env, GATEWAY_DATA_DIR: dir },
      });
      gateways.push(gateway);
      return gateway;
    };

    let gateway = await startGateway();
    const { secretKey, providerId } = await seedAccount(database.url, masterKeys, acquirer.provider);
    let api = client(gateway.url, secretKey);
    const methods: string[] = [];
    for (let n = 0; n < METHODS; n += 1) {
      const { status, body } = await api.post('/payment_method/card', { providerId, paymentInformation: acquirer.paymentInformation });
      expect(status).toBe(201);
      methods.push(String(body.paymentMethodId));
    }
    const lines = Array.from({ length: rows }, (_, n) => `${methods[n % METHODS]},${amountOf(n)},${currency},crash-${n}`);
    const created = await api.post('/batch/transaction/payment_method', {
      count: rows,
      description: 'crash',
      batch: ['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n'),
    });
    expect(created.status).toBe(200);
    const batchId = String(created.body.batchId);
    const status = async () => (await api.get(`/batch/${batchId}/status`)).body;

    // Part-way: the counters move as chunks of rows are recorded.
    await expect.poll(async () => Number((await status()).progress), { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(0.2);
    const before = await status();
    expect(before).toMatchObject({ status: 'IN_PROGRESS' });
    expect(before.progress).toBeLessThan(1);
    const unrecorded = async (openedWithinMs = 3_600_000) => {
      const [{ count }] = await db.prisma.$queryRaw<[{ count: number }]>`
        SELECT count(*)::int AS count FROM "BatchRow" r JOIN "Charge" c ON c."id" = r."chargeId"
        WHERE r."batchId" = ${batchId} AND r."status" = 'CREATED'
          AND c."dateAdded" > now() - ${openedWithinMs} * interval '1 millisecond'`;
      return count;
    };
    await acquirer.holdUnrecordedRows(unrecorded);
    await gateway.kill();

    // The kill left rows charged (or being charged) whose outcome the batch had not recorded yet.
    expect(await unrecorded()).toBeGreaterThan(0);
    // What the dead gateway sent and never heard back of, by its own record: a call that cannot be
    // sent twice (NAB) is kept before it leaves, and what its answer said is kept with it at once.
    const unanswered = (await db.prisma.charge.findMany({ where: { batchId, status: 'PROCESSING' } }))
      .filter(sentUnanswered)
      .map((charge) => charge.id)
      .sort();
    if (acquirer.afterKill === 'held') expect(unanswered.length).toBeGreaterThan(0);
    // The dead worker's claims would be taken over once their 30 s leases ran out: end them now.
    await db.prisma.$executeRaw`UPDATE "Job" SET "lockedUntil" = now() WHERE "status" = 'RUNNING'`;

    gateway = await startGateway();
    api = client(gateway.url, secretKey);
    await expect.poll(async () => (await status()).status, { timeout: 45_000, interval: 100 }).toBe('SUCCESS');
    const done = await api.get(`/batch/${batchId}`);
    const results = String(done.body.results)
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    const recorded = await db.prisma.batchRow.findMany({ where: { batchId }, orderBy: { line: 'asc' } });
    expect(results.map(([, , , reference, rowStatus]) => `${reference} ${rowStatus}`)).toEqual(
      recorded.map((row, n) => `crash-${n} ${row.status}`),
    );
    // Every row charged, but where the provider cannot take a call twice: there, the rows whose answer
    // the dead gateway never had are held for staff, FAILED not to be charged again.
    const held = recorded.filter((row) => row.status !== 'SUCCESS');
    expect(done.body).toMatchObject({ count: rows, success: rows - held.length, failure: held.length, progress: 1 });
    const heldRow = {
      status: 'FAILED',
      failureReason: expect.stringContaining('holds it for staff'),
      gatewayErrorCode: HELD,
      isRetryable: false,
    };
    expect(
      held.map(({ reference, status, failureReason, gatewayErrorCode, isRetryable }) => ({
        reference,
        status,
        failureReason,
        gatewayErrorCode,
        isRetryable,
      })),
    ).toEqual(held.map(({ reference }) => ({ reference, ...heldRow })));
    expect(held.map((row) => row.chargeId).sort()).toEqual(acquirer.afterKill === 'held' ? unanswered : []);
    // Their charges wait for staff: PROCESSING, each payment listed as unknown.
    const heldCharges = await db.prisma.charge.findMany({
      where: { id: { in: held.map((row) => row.chargeId) } },
      include: { unknownOutcomes: true },
    });
    expect(heldCharges.map(({ status, unknownOutcomes }) => ({ status, unknownOutcomes }))).toEqual(
      held.map(() => ({ status: 'PROCESSING', unknownOutcomes: [expect.objectContaining({ operation: 'payment', resolvedAt: null })] })),
    );
    const [{ rerun }] = await db.prisma.$queryRaw<[{ rerun: number }]>`
      SELECT count(*)::int AS rerun FROM "Job" WHERE "queue" = 'batch.charge-rows' AND "attempts" > 1`;
    expect(rerun).toBeGreaterThan(0);
    await gateway.stop();
    await acquirer.check(recorded.map(({ status, chargeId }) => ({ status, chargeId })));
  }, 180_000);
});
