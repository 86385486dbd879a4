import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newMasterKey } from '@gateway/core';
import { openDatabase, type Database } from '@gateway/db';
import { startSimulator, type Simulator } from '@gateway/providers';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedAccount } from '../bench/child-gateway';
import { GATEWAY_DIR, MAIN_TS, post, startWatchedGateway, type WatchedGateway } from './child-processes';
import { card, CHEAP_DOMESTIC, client, createTestDatabase, type Client } from './harness';
import { startReceiver } from './webhook-receiver';

/**
 * Gateway processes sharing one PostgreSQL database, each a child process (src/main.ts through
 * tsx) as deployed: whatever reaches either of them, and whichever of them runs a background job,
 * each charge, idempotency key, batch row, webhook delivery and subscription period is handled once,
 * by the acquirer's own record. Then GATEWAY_WORKERS=2: two workers on one port, one acquirer, the
 * start-up work done once, the pool budget kept, and a stop of all of them on one SIGTERM.
 */
const STEADY = { ...CHEAP_DOMESTIC, name: 'Steady', timeoutMs: 10_000 };

/** The acquirer's live (not reversed) authorisations of the charge `chargeId`, any attempt. */
const liveOf = (simulator: Simulator, chargeId: unknown) =>
  simulator.ledger
    .authorisations()
    .filter((x) => x.idempotencyKey.startsWith(`${String(chargeId)}:`) && (x.status === 'authorised' || x.status === 'captured'));

/**
 * Fails unless a charge answered `status` made one live payment at the acquirer (201), or none (a
 * refusal because the acquirer could not be reached, which a busy machine produces now and then:
 * code 34; other refusals would be a bug here).
 */
function expectChargedOnce(simulator: Simulator, answer: { status: number; body: Record<string, unknown> }) {
  if (answer.status === 201) return expect(liveOf(simulator, answer.body.chargeId)).toHaveLength(1);
  expect(answer).toMatchObject({ status: 400, body: { code: 34 } });
  expect(liveOf(simulator, (answer.body.details as Record<string, unknown>).chargeId)).toEqual([]);
}

describe.runIf(inject('databaseServerUrl'))('two gateway processes on one database', () => {
  let simulator: Simulator;
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let dir: string;
  let masterKeys: string;
  let gateways: WatchedGateway[] = [];

  /** A new account with one provider, and a client of it for each process. */
  async function account(provider = STEADY): Promise<{ apis: Client[]; providerId: string; accountId: string }> {
    const { secretKey, providerId } = await seedAccount(database.url, masterKeys, provider);
    const { accountId } = await db.prisma.provider.findUniqueOrThrow({ where: { id: providerId }, select: { accountId: true } });
    return { apis: gateways.map((g) => client(g.url, secretKey)), providerId, accountId };
  }

  beforeAll(async () => {
    simulator = await startSimulator();
    database = (await createTestDatabase())!;
    dir = mkdtempSync(join(tmpdir(), 'two-processes-'));
    masterKeys = `two:${newMasterKey()}`;
    // One public URL, as behind a load balancer: error bodies link to it whichever process answers.
    const env = {
      GATEWAY_SIMULATOR_URL: simulator.url,
      GATEWAY_DATA_DIR: dir,
      GATEWAY_WEBHOOK_ALLOW_PRIVATE: 'true',
      GATEWAY_PUBLIC_URL: 'https://gateway.example',
      // The production default: each process logs the batch chunks it recorded.
      LOG_LEVEL: 'info',
    };
    // Started together: the start-up lock lets one apply the migrations while the other waits.
    gateways = await Promise.all([0, 1].map(() => startWatchedGateway({ databaseUrl: database.url, masterKeys, env })));
    db = await openDatabase({ url: database.url, poolSize: 2 });
  }, 400_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await db?.close();
    await simulator?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('charges each request once, whichever process gets it', async () => {
    const { apis, providerId } = await account();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        apis[n % 2]!.post('/charge/card', {
          amount: 10 + n,
          currency: 'AUD',
          providerId,
          reference: `each-${n}`,
          paymentInformation: card(),
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(36);
    expect(new Set(answers.map((a) => a.body.chargeId ?? (a.body.details as Record<string, unknown>).chargeId)).size).toBe(40);
    for (const answer of answers) expectChargedOnce(simulator, answer);
  }, 120_000);

  it('runs one charge per idempotency key sent to both processes at once', async () => {
    const { apis, providerId, accountId } = await account();
    const keys = Array.from({ length: 15 }, (_, n) => `both-${n}-${newMasterKey().slice(0, 8)}`);
    const send = (api: Client, key: string, n: number) =>
      api.post(
        '/charge/card',
        { amount: 20 + n, currency: 'AUD', providerId, reference: key, paymentInformation: card() },
        { 'idempotency-key': key },
      );
    const pairs = await Promise.all(keys.map((key, n) => Promise.all(apis.map((api) => send(api, key, n)))));
    const ran = pairs.map((pair) => pair.filter((a) => a.status !== 409));
    for (const answers of ran) {
      // One ran it, the other was told it was running (409) or answered the same again.
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    }
    // Asked again, either process answers the first answer.
    const again = await Promise.all(keys.map((key, n) => send(apis[(n + 1) % 2]!, key, n)));
    expect(again.map((a) => a.body)).toEqual(ran.map((answers) => answers[0]!.body));
    expect(await db.prisma.charge.count({ where: { accountId } })).toBe(keys.length);
    for (const answer of again) expectChargedOnce(simulator, answer);
  }, 120_000);

  it('charges each row of batches once, their jobs shared between the two processes', async () => {
    // Acquirer latency of about a second: a chunk's calls (50 at once) outlast the other process's
    // idle look for due jobs (every second), so work left due while one process is busy is seen.
    const { apis, providerId } = await account({ ...STEADY, latency: { minMs: 1_000, maxMs: 1_200 } });
    const methods: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      const { status, body } = await apis[n % 2]!.post('/payment_method/card', { providerId, paymentInformation: card() });
      expect(status).toBe(201);
      methods.push(String(body.paymentMethodId));
    }
    // Three batches of two 50-row chunks each, both chunks of a batch due at once: six chunks of
    // one account due together, more than one process runs for an account (2).
    const BATCHES = 3;
    const ROWS = 100;
    const batchIds: string[] = [];
    for (let b = 0; b < BATCHES; b += 1) {
      const lines = Array.from(
        { length: ROWS },
        (_, n) => `${methods[n % methods.length]},${1 + (n % 50)}.${String(n % 100).padStart(2, '0')},AUD,row-${b}-${n}`,
      );
      const created = await apis[b % 2]!.post('/batch/transaction/payment_method', {
        count: ROWS,
        description: `shared ${b}`,
        batch: ['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n'),
      });
      expect(created.status).toBe(200);
      batchIds.push(String(created.body.batchId));
    }
    for (const batchId of batchIds) {
      await expect
        .poll(async () => (await apis[1]!.get(`/batch/${batchId}/status`)).body.status, { timeout: 150_000, interval: 200 })
        .toBe('SUCCESS');
      const { body } = await apis[0]!.get(`/batch/${batchId}`);
      expect(body).toMatchObject({ count: ROWS, progress: 1 });
      // Each row's charge: a live payment for a SUCCESS row, none for a FAILED one (reference, status, charge id).
      const rows = String(body.results)
        .split('\n')
        .slice(1)
        .map((line) => line.split(','));
      const failed = rows.filter((row) => row[4] !== 'SUCCESS');
      // A busy machine makes the acquirer miss a few (unreachable, or past the provider's timeout).
      expect(failed.length, failed.map((row) => row.join()).join('\n')).toBeLessThan(ROWS / 10);
      expect(rows).toHaveLength(ROWS);
      for (const [, , , , status, chargeId] of rows) expect(liveOf(simulator, chargeId)).toHaveLength(status === 'SUCCESS' ? 1 : 0);
    }
    // Each process recorded chunks of these batches.
    for (const gateway of gateways) {
      const chunks = gateway.logLines().filter((line) => line.msg === 'batch chunk recorded' && batchIds.includes(String(line.batchId)));
      expect(chunks.length, `chunks recorded by process ${gateway.child.pid}`).toBeGreaterThan(0);
    }

    // And nothing else: one authorisation per row at most.
    const authorisations = simulator.ledger.authorisations().filter((x) => x.reference?.startsWith('row-'));
    expect(new Set(authorisations.map((x) => x.reference)).size).toBe(authorisations.length);
  }, 240_000);

  it('delivers each webhook event once, whichever process runs its delivery', async () => {
    const receiver = await startReceiver();
    try {
      const { apis, providerId, accountId } = await account();
      const subscribed = await apis[0]!.post('/webhook/subscription', {
        url: receiver.url('/both'),
        authorization: 'Bearer both',
        types: ['Transaction'],
      });
      expect(subscribed.status).toBe(200);
      for (let n = 0; n < 30; n += 1) {
        const { status } = await apis[n % 2]!.post('/charge/card', { amount: 5, currency: 'AUD', providerId, paymentInformation: card() });
        expect(status).toBeLessThan(500);
      }
      const deliveries = () =>
        db.prisma.webhookDelivery.findMany({ where: { event: { accountId } }, select: { status: true, attempts: true } });
      const allDelivered = async () => {
        const all = await deliveries();
        return all.length >= 30 && all.every((d) => d.status === 'DELIVERED');
      };
      await expect.poll(allDelivered, { timeout: 60_000 }).toBe(true);
      // Time for a second delivery of any of them, were there one.
      await sleep(2_000);
      const all = await deliveries();
      expect(all.map((d) => d.attempts)).toEqual(Array(all.length).fill(1));
      const received = receiver.at('/both');
      expect(received).toHaveLength(all.length);
      expect(new Set(received.map((r) => r.meta.messageId)).size).toBe(all.length);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('bills each subscription period once', async () => {
    const { apis, providerId } = await account();
    const ids: string[] = [];
    for (let n = 0; n < 8; n += 1) {
      const api = apis[n % 2]!;
      const method = await api.post('/payment_method/card', { providerId, paymentInformation: card() });
      const { status, body } = await api.post('/subscription/payment_method', {
        paymentMethodId: method.body.paymentMethodId,
        amount: 3,
        interval: 'Day',
        frequency: 1,
      });
      expect(status).toBe(200);
      ids.push(String(body.subscriptionId));
    }
    const billed = async (count: number) => {
      const counts = await db.prisma.subscription.findMany({ where: { id: { in: ids } }, select: { paymentCount: true } });
      return counts.every((s) => s.paymentCount === count);
    };
    // The first period is due at once; the second, tomorrow, is brought forward (the test cannot wait a day).
    await expect.poll(() => billed(1), { timeout: 60_000 }).toBe(true);
    await db.prisma.job.updateMany({ where: { queue: 'subscription.bill', status: 'PENDING' }, data: { runAt: new Date() } });
    await expect.poll(() => billed(2), { timeout: 60_000 }).toBe(true);
    await sleep(2_000);

    for (const id of ids) {
      const subscription = await db.prisma.subscription.findUniqueOrThrow({ where: { id } });
      expect(subscription).toMatchObject({ paymentCount: 2, paidAmount: 600n });
      const charges = await db.prisma.charge.findMany({ where: { subscriptionId: id } });
      expect(charges.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);
      for (const charge of charges) expect(liveOf(simulator, charge.id)).toHaveLength(1);
    }
  }, 150_000);

  it('holds the public-key limits across both processes: declines alternating between them reach the limit once in total', async () => {
    const { providerId, accountId } = await account();
    const { publicKey } = await db.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { publicKey: true } });
    const declinedCard = Buffer.from(JSON.stringify({ cardNumber: '4000000000009995', expiryMonth: 12, expiryYear: 2030 })).toString(
      'base64',
    );
    const walletCharge = (n: number) =>
      client(gateways[n % 2]!.url).post(
        '/charge/token/apple',
        {
          token: {
            paymentData: {
              data: declinedCard,
              signature: 's',
              header: { transactionId: 't', publicKeyHash: 'h', ephemeralPublicKey: 'k' },
              version: 'EC_v1',
            },
          },
          amount: 1,
        },
        { 'x-publickey': publicKey, providerId },
      );
    const answers = [];
    for (let n = 0; n < 30 && answers.at(-1)?.status !== 429; n += 1) answers.push(await walletCharge(n));
    // Declines of one card (5 by default; the dummy type's wallet data names it), counted in the database: not 5 for each process.
    expect(answers.filter((a) => a.body.code === 43)).toHaveLength(5);
    expect(answers.at(-1)).toMatchObject({ status: 429, body: { code: 35 } });
    for (let n = 0; n < 4; n += 1) expect((await walletCharge(n)).status).toBe(429);
  }, 120_000);
});

describe.runIf(inject('databaseServerUrl'))('GATEWAY_WORKERS=2', () => {
  it('shares one port, one acquirer and the pool budget, does the start-up work once, and stops on one SIGTERM', async () => {
    const database = (await createTestDatabase())!;
    const dir = mkdtempSync(join(tmpdir(), 'workers-'));
    const gateway = await startWatchedGateway({
      databaseUrl: database.url,
      masterKeys: `workers:${newMasterKey()}`,
      workers: 2,
      env: {
        GATEWAY_DATA_DIR: dir,
        GATEWAY_SEED_DEMO: 'true',
        GATEWAY_DB_POOL_SIZE: '6',
        GATEWAY_SHUTDOWN_TIMEOUT_SECONDS: '10',
        LOG_LEVEL: 'info',
      },
    });
    const db = await openDatabase({ url: database.url, poolSize: 1 });
    try {
      await expect.poll(() => gateway.logLines().some((line) => line.msg === 'gateway started'), { timeout: 120_000 }).toBe(true);
      const messages = gateway.logLines().map((line) => line.msg);
      expect(messages.filter((msg) => msg === 'migrations applied')).toHaveLength(1);
      expect(await db.prisma.account.count()).toBe(1);
      const demo = JSON.parse(readFileSync(join(dir, 'demo-account.json'), 'utf8')) as {
        secretKey: string;
        providers: Array<{ providerId: string }>;
      };
      const providerId = demo.providers[0]!.providerId;

      // A connection per request, so that the primary hands them to both workers in turn: a card
      // stored through one is charged through the other, at the one acquirer.
      const fresh = new Agent({ keepAlive: false });
      const call = async (path: string, body: unknown) => {
        const outcome = await post(fresh, `${gateway.url}${path}`, { 'x-secretkey': demo.secretKey }, body);
        expect(outcome).toMatchObject({ kind: 'answer', status: 201 });
        return outcome.kind === 'answer' ? outcome.body : {};
      };
      const methods = [];
      for (let n = 0; n < 6; n += 1) methods.push(await call('/payment_method/card', { providerId, paymentInformation: card() }));
      for (const method of methods) await call('/charge/payment_method', { paymentMethodId: method.paymentMethodId, amount: 7 });

      // A burst of 40 at once stays within the budget of 6 connections for both workers together (listeners included).
      let connections = 0;
      const sampling = (async () => {
        for (let n = 0; n < 20; n += 1, await sleep(25)) {
          const [{ count }] = await db.prisma.$queryRaw<[{ count: number }]>`
            SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
          connections = Math.max(connections, count);
        }
      })();
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 40 });
      const burst = await Promise.all(
        Array.from({ length: 40 }, () =>
          post(
            keepAlive,
            `${gateway.url}/charge/card`,
            { 'x-secretkey': demo.secretKey },
            { amount: 3, currency: 'AUD', providerId, paymentInformation: card() },
          ),
        ),
      );
      await sampling;
      keepAlive.destroy();
      expect(burst.filter((o) => o.kind === 'answer' && o.status === 201).length).toBeGreaterThan(36);
      expect(burst.filter((o) => o.kind !== 'answer' || (o.status !== 201 && o.body.code !== 34))).toEqual([]);
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(6);

      const requests = gateway.logLines().filter((line) => line.msg === 'request' && line.method === 'POST');
      for (const path of ['/payment_method/card', '/charge/payment_method']) {
        expect(new Set(requests.filter((line) => line.path === path).map((line) => line.worker))).toEqual(new Set([1, 2]));
      }

      const signalledAt = Date.now();
      gateway.child.kill('SIGTERM');
      const { code, at } = await gateway.exited;
      expect(code).toBe(0);
      expect(at - signalledAt).toBeLessThan(11_000);
      const stopped = gateway.logLines().filter((line) => line.msg === 'stopped');
      expect(stopped.map((line) => line.worker ?? 'primary').sort()).toEqual([1, 2, 'primary']);
      expect(gateway.output.join('')).not.toContain('Cannot use a pool after calling end');
      expect(await db.prisma.charge.count({ where: { status: 'PROCESSING' } })).toBe(0);

      // The acquirer's ledger, as the primary kept it in the data folder: one payment per approved charge.
      const ledger = await startSimulator({ stateFile: join(dir, 'simulator-state.jsonl') });
      try {
        const charges = await db.prisma.charge.findMany({ select: { id: true, status: true } });
        expect(charges).toHaveLength(46);
        for (const { id, status } of charges) expect(liveOf(ledger, id)).toHaveLength(status === 'SUCCESS' ? 1 : 0);
      } finally {
        await ledger.close();
      }
    } finally {
      await gateway.kill();
      await db.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});

describe('GATEWAY_WORKERS on the embedded database', () => {
  it('is refused with a message that says why and what to do', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_') && name !== 'DATABASE_URL'));
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN_TS], {
      cwd: GATEWAY_DIR,
      env: { ...env, GATEWAY_WORKERS: '2' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(stderr).toContain('GATEWAY_WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process');
  }, 60_000);
});
