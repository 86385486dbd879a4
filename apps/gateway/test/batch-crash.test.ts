import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newMasterKey } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { startSimulator, type Simulator } from '@gateway/providers';
import type { NewProvider } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount, startChildGateway, type ChildGateway } from '../bench/child-gateway';
import { card, CHEAP_DOMESTIC, client, createTestDatabase, VISA } from './harness';
import { startRealProviders, type RealProviders, type RealType } from './real-providers';

/**
 * A gateway killed (SIGKILL) in the middle of a batch of 1,000 rows, then started again: every
 * row ends charged exactly once, by the acquirer's own record. The gateway runs as a child
 * process (src/main.ts through tsx); the simulated acquirer runs in this process, so it outlives
 * the gateway as a real one would, and keeps its ledger in a state file, read back at the end.
 * The same with a stripe and an adyen provider (fewer rows), against the fake providers, which
 * also run in this process.
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

/** What differs between the acquirers a batch is killed at. */
interface Acquirer {
  rows: number;
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
  /** Checks the acquirer's own record: one payment per row, for the row's amount, under its charge's key. */
  check(results: string[][]): Promise<void>;
  close(): Promise<void>;
}

/** The simulated acquirer, its ledger in a state file read back at the end. */
async function simulated(dir: string): Promise<Acquirer> {
  const stateFile = join(dir, 'acquirer.jsonl');
  let simulator: Simulator = await startSimulator({ stateFile });
  return {
    rows: ROWS,
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
    async check(results) {
      // The acquirer's record, as its state file keeps it: one captured authorisation per row,
      // for the row's amount, under the key of the row's charge (TransactionId).
      await simulator.close();
      simulator = await startSimulator({ stateFile });
      const authorisations = simulator.ledger.authorisations().filter((auth) => auth.reference?.startsWith('crash-'));
      const byReference = new Map(authorisations.map((auth) => [auth.reference, auth]));
      expect(authorisations).toHaveLength(ROWS);
      expect(byReference.size).toBe(ROWS);
      results.forEach(([, , , reference, , transactionId], n) => {
        expect(byReference.get(reference)).toMatchObject({ status: 'captured', amount: minorOf(n), idempotencyKey: `${transactionId}:1` });
      });
    },
    close: () => simulator.close(),
  };
}

let fakes: RealProviders;

/** A fake provider (stripe, adyen, checkout): it lives in this process, so its record outlives the gateway. */
function real(type: RealType): Acquirer {
  const provider = fakes.of(type);
  return {
    rows: 300,
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
    async check(results) {
      results.forEach(([, , , , , transactionId], n) => {
        expect(provider.allPayments(String(transactionId)), `row ${n}`).toEqual([
          expect.objectContaining({ attempt: `${transactionId}:1`, authorised: Number(minorOf(n)), captured: Number(minorOf(n)) }),
        ]);
      });
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
  // nab_transact is left out: this expects every row charged after the restart, as a type that
  // takes a call twice allows. NAB cannot, so the rows the dead gateway left in flight are held for
  // staff (docs/outcome-unknown.md) and the batch does not end 300 of 300; a NAB variant would
  // count them held. (Before the core held them, they were charged again: NAB paid each twice.)
];

// Two processes must share the database: the embedded one cannot be shared.
describe.skipIf(!inject('databaseServerUrl')).each(acquirers)('a gateway killed mid-batch at %s', (_name, acquirerOf) => {
  it('charges every row exactly once after a restart', async () => {
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
    // The dead worker's claims would be taken over once their 30 s leases ran out: end them now.
    await db.prisma.$executeRaw`UPDATE "Job" SET "lockedUntil" = now() WHERE "status" = 'RUNNING'`;

    gateway = await startGateway();
    api = client(gateway.url, secretKey);
    await expect.poll(async () => (await status()).status, { timeout: 45_000, interval: 100 }).toBe('SUCCESS');
    const done = await api.get(`/batch/${batchId}`);
    expect(done.body).toMatchObject({ count: rows, success: rows, failure: 0, progress: 1 });
    const results = String(done.body.results)
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    expect(results.map(([, , , reference, rowStatus]) => `${reference} ${rowStatus}`)).toEqual(lines.map((_, n) => `crash-${n} SUCCESS`));
    const [{ rerun }] = await db.prisma.$queryRaw<[{ rerun: number }]>`
      SELECT count(*)::int AS rerun FROM "Job" WHERE "queue" = 'batch.charge-rows' AND "attempts" > 1`;
    expect(rerun).toBeGreaterThan(0);
    await gateway.stop();
    await acquirer.check(results);
  }, 180_000);
});
