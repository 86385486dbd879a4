import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@gateway/db';
import { reachableBackends } from '@gateway/db/test-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentJobError, type JobHandler } from './handler';
import { createJobQueue, type JobQueue } from './queue';
import { createPostgresDatabase, effectHandler, manualClock, openMigrated, realClock, recordingLogger } from './test/support';
import { startWorker, type WorkerOptions } from './worker';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

async function postgres() {
  const server = await createPostgresDatabase();
  const database = await openMigrated(server.url);
  return { database, close: () => database.close().then(server.drop) };
}

async function pglite() {
  const database = await openMigrated();
  return { database, close: () => database.close() };
}

describe.each(
  await reachableBackends([
    { backend: 'PostgreSQL', open: postgres },
    { backend: 'PGlite', open: pglite },
  ]),
)('jobs on $backend', ({ open }) => {
  let database: Database;
  let close: () => Promise<void>;
  let clock: ReturnType<typeof manualClock>;
  let logger: ReturnType<typeof recordingLogger>;
  let queue: JobQueue;
  const workers: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    ({ database, close } = await open());
  });
  afterAll(() => close());
  beforeEach(async () => {
    await database.prisma.$executeRawUnsafe(`TRUNCATE "Job", "Execution", "Effect"`);
    clock = manualClock();
    logger = recordingLogger();
    queue = createJobQueue({ db: database.prisma, clock });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });

  // Driven by runDue(): the worker's own loop would first look an hour from now.
  function worker(handlers: WorkerOptions['handlers'], options: Partial<WorkerOptions> = {}) {
    const started = startWorker({ db: database.prisma, clock, logger, handlers, pollMs: 3_600_000, ...options });
    workers.push(started);
    return started;
  }

  async function job(id: string) {
    const [row] = await database.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT "status"::text, "attempts", "runAt", "lastError", "lockedBy", "lockedUntil", "finishedAt" FROM "Job" WHERE "id" = ${id}`;
    return row;
  }

  const count = async (table: string) =>
    (await database.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}"`))[0]!.n;

  it('runs a due job once and marks it succeeded', async () => {
    const seen: unknown[] = [];
    const w = worker({ greet: async (payload, ctx) => void seen.push([payload, ctx.attempt, ctx.signal.aborted]) });
    const id = await queue.enqueue('greet', { name: 'Ada', tags: ['a'] });

    expect(await w.runDue()).toBe(1);
    expect(seen).toEqual([[{ name: 'Ada', tags: ['a'] }, 1, false]]);
    expect(await job(id)).toEqual({
      status: 'SUCCEEDED',
      attempts: 1,
      runAt: clock.now(),
      lastError: null,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: clock.now(),
    });
    expect(await w.runDue()).toBe(0);
  });

  it('retries a failing job with growing delays, then fails it, keeping only the error message', async () => {
    const w = worker({
      charge: async () => {
        throw new Error('acquirer unreachable');
      },
    });
    await expect(queue.enqueue('charge', {}, { maxAttempts: 0 })).rejects.toThrow(RangeError);
    const id = await queue.enqueue('charge', { pan: '4111111111111111' }, { maxAttempts: 3 });

    const start = clock.now().getTime();
    expect(await w.runDue()).toBe(1);
    let row = await job(id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, lastError: 'acquirer unreachable', lockedBy: null });
    expect((row!.runAt as Date).getTime() - start).toBeGreaterThanOrEqual(5 * SECOND);
    expect((row!.runAt as Date).getTime() - start).toBeLessThanOrEqual(10 * SECOND);
    expect(await w.runDue()).toBe(0);

    clock.advance(10 * SECOND);
    expect(await w.runDue()).toBe(1);
    row = await job(id);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect((row!.runAt as Date).getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(10 * SECOND);

    clock.advance(20 * SECOND);
    expect(await w.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'FAILED', attempts: 3, finishedAt: clock.now(), lastError: 'acquirer unreachable' });
    expect(logger.lines.join('\n')).not.toContain('4111');
  });

  it('fails a job at once on PermanentJobError, with a truncated message', async () => {
    const w = worker({
      purge: async () => {
        throw new PermanentJobError(`no such item ${'x'.repeat(1000)}`);
      },
    });
    const id = await queue.enqueue('purge', {});
    await w.runDue();
    const row = await job(id);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(row!.lastError).toHaveLength(500);
  });

  it('keeps one job per dedupe key, and cancel removes it only while pending', async () => {
    const first = await queue.enqueue('purge', { n: 1 }, { dedupeKey: 'ccv-purge:v1' });
    expect(await queue.enqueue('purge', { n: 2 }, { dedupeKey: 'ccv-purge:v1' })).toBe(first);
    expect(await count('Job')).toBe(1);

    expect(await queue.cancel('ccv-purge:v1')).toBe(true);
    expect(await queue.cancel('ccv-purge:v1')).toBe(false);
    expect(await count('Job')).toBe(0);

    const again = await queue.enqueue('purge', { n: 3 }, { dedupeKey: 'ccv-purge:v1' });
    expect(again).not.toBe(first);
    await worker({ purge: async () => {} }).runDue();
    expect(await queue.cancel('ccv-purge:v1')).toBe(false);
    expect(await job(again)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('brings a pending job forward with advance, never back, and leaves a started one alone', async () => {
    const at = (ms: number) => new Date(clock.now().getTime() + ms);
    const runAt = async (id: string) => (await job(id))!.runAt;
    const id = await queue.enqueue('chunk', { n: 1 }, { dedupeKey: 'chunk:1', runAt: at(DAY), advance: true });
    expect(await queue.enqueue('chunk', { n: 1 }, { dedupeKey: 'chunk:1', runAt: at(SECOND) })).toBe(id);
    expect(await runAt(id)).toEqual(at(DAY));
    expect(await queue.enqueue('chunk', { n: 1 }, { dedupeKey: 'chunk:1', runAt: at(2 * DAY), advance: true })).toBe(id);
    expect(await runAt(id)).toEqual(at(DAY));
    expect(await queue.enqueue('chunk', { n: 1 }, { dedupeKey: 'chunk:1', advance: true })).toBe(id);
    expect(await runAt(id)).toEqual(clock.now());
    await worker({ chunk: async () => {} }).runDue();
    clock.advance(DAY);
    expect(await queue.enqueue('chunk', { n: 1 }, { dedupeKey: 'chunk:1', advance: true })).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED', runAt: at(-DAY) });
    expect(await count('Job')).toBe(1);
  });

  it('brings a pending job forward to now by its key, never one that started or ran', async () => {
    const id = await queue.enqueue('confirm', {}, { dedupeKey: 'confirm:1', runAt: new Date(clock.now().getTime() + DAY) });
    expect(await queue.bringForward('confirm:1')).toBe(true);
    expect((await job(id))!.runAt).toEqual(clock.now());
    expect(await queue.bringForward('confirm:1')).toBe(false);
    expect(await queue.bringForward('confirm:unknown')).toBe(false);
    await worker({ confirm: async () => {} }).runDue();
    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED' });
    expect(await queue.bringForward('confirm:1')).toBe(false);
  });

  it('leaves a job waiting for its retry at its backoff, even with advance', async () => {
    const id = await queue.enqueue('flaky', {}, { dedupeKey: 'flaky:1' });
    await worker({
      flaky: async () => {
        throw new Error('not yet');
      },
    }).runDue();
    const retry = await job(id);
    expect(retry).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect((retry!.runAt as Date).getTime()).toBeGreaterThan(clock.now().getTime());
    expect(await queue.enqueue('flaky', {}, { dedupeKey: 'flaky:1', advance: true })).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'PENDING', attempts: 1, runAt: retry!.runAt });
  });

  it('runs a job no earlier than its runAt by the injected clock', async () => {
    const w = worker({ renew: async () => {} });
    const id = await queue.enqueue('renew', {}, { runAt: new Date(clock.now().getTime() + 365 * DAY) });
    expect(await w.runDue()).toBe(0);
    clock.advance(365 * DAY - 1);
    expect(await w.runDue()).toBe(0);
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('runs a job that schedules its successor monthly through a year of clock time', async () => {
    const renewals: string[] = [];
    const renew: JobHandler = async (payload, ctx) => {
      const { month } = payload as { month: number };
      await database.prisma.$transaction(async (tx) => {
        renewals.push(clock.now().toISOString().slice(0, 7));
        const next = new Date(Date.UTC(2026, month + 1, 1));
        await queue.enqueue('renew', { month: month + 1 }, { runAt: next, dedupeKey: `renew:${month + 1}`, tx });
        await ctx.complete(tx);
      });
    };
    const w = worker({ renew });
    await queue.enqueue('renew', { month: 0 }, { dedupeKey: 'renew:0' });
    for (let day = 0; day < 365; day += 31) {
      await w.runDue();
      clock.advance(31 * DAY);
    }
    expect(renewals).toHaveLength(12);
    expect(renewals.at(-1)).toBe('2026-12');
  });

  it('enqueues in the caller transaction: a rollback leaves no job', async () => {
    await expect(
      database.prisma.$transaction(async (tx) => {
        await queue.enqueue('webhook', { event: 'charge.succeeded' }, { tx });
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect(await count('Job')).toBe(0);

    await database.prisma.$transaction((tx) => queue.enqueue('webhook', {}, { tx }));
    expect(await count('Job')).toBe(1);
  });

  it('commits a handler effect and the completion together, or neither', async () => {
    let failAfterComplete = true;
    const w = worker({
      settle: async (_payload, ctx) => {
        await database.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`INSERT INTO "Effect" ("jobId", "by") VALUES (${ctx.jobId}, 'settle')`;
          await ctx.complete(tx);
          if (failAfterComplete) throw new Error('later step failed');
        });
      },
    });
    const id = await queue.enqueue('settle', {});
    await w.runDue();
    expect(await job(id)).toMatchObject({ status: 'PENDING', attempts: 1, lastError: 'later step failed' });
    expect(await count('Effect')).toBe(0);

    failAfterComplete = false;
    clock.advance(DAY);
    await w.runDue();
    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(await count('Effect')).toBe(1);
  });

  it('takes over a job whose lease expired; the first run can no longer complete it', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const slow = effectHandler(database.prisma, 'slow');
    const stuck = worker({ settle: async (payload, ctx) => paused.then(() => slow(payload, ctx)) }, { leaseMs: 30 * SECOND });
    const id = await queue.enqueue('settle', {});
    const stuckRun = stuck.runDue();
    await expect.poll(() => job(id)).toMatchObject({ status: 'RUNNING', attempts: 1 });

    const other = worker({ settle: effectHandler(database.prisma, 'other') });
    expect(await other.runDue()).toBe(0);
    clock.advance(30 * SECOND);
    expect(await other.runDue()).toBe(1);
    resume();
    await stuckRun;

    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    expect(await database.prisma.$queryRaw`SELECT "by" FROM "Effect"`).toEqual([{ by: 'other' }]);
    expect(await count('Execution')).toBe(2);
    expect(logger.lines.filter((line) => line.startsWith('job was taken over'))).toHaveLength(1);
  });

  it('renews the lease of a long handler, so no other worker takes its job', async () => {
    const long = worker({ slow: () => sleep(600) }, { clock: realClock, leaseMs: 200 });
    const id = await queue.enqueue('slow', {});
    const longRun = long.runDue();
    await expect.poll(() => job(id)).toMatchObject({ status: 'RUNNING' });

    const other = worker({ slow: async () => {} }, { clock: realClock });
    for (const deadline = Date.now() + 500; Date.now() < deadline; await sleep(50)) {
      expect(await other.runDue()).toBe(0);
    }
    await longRun;
    expect(await job(id)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
  });

  it('fails a job whose worker died during its last attempt without running it again', async () => {
    const stuck = worker({ settle: () => new Promise(() => {}) }, { stopTimeoutMs: 10 });
    const id = await queue.enqueue('settle', {}, { maxAttempts: 1 });
    void stuck.runDue();
    await expect.poll(() => job(id)).toMatchObject({ status: 'RUNNING' });
    await stuck.stop();

    let ran = false;
    clock.advance(60 * SECOND);
    await worker({ settle: async () => void (ran = true) }).runDue();
    expect(ran).toBe(false);
    expect(await job(id)).toMatchObject({ status: 'FAILED', lastError: 'Lease expired during the last attempt' });
  });

  it('stop() waits for running handlers, and after its timeout hands their jobs back', async () => {
    // The handler ends 50 ms after stop() is called (not after it starts: a loaded machine could
    // finish it before the test sees it running).
    let finished = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const patient = worker({ quick: () => released.then(() => void (finished = true)) });
    const quick = await queue.enqueue('quick', {});
    void patient.runDue();
    await expect.poll(() => job(quick)).toMatchObject({ status: 'RUNNING' });
    const stopping = patient.stop();
    setTimeout(release, 50);
    await stopping;
    expect(finished).toBe(true);
    expect(await job(quick)).toMatchObject({ status: 'SUCCEEDED' });

    let signal: AbortSignal | undefined;
    const impatient = worker({ hang: (_payload, ctx) => new Promise(() => void (signal = ctx.signal)) }, { stopTimeoutMs: 20 });
    const hung = await queue.enqueue('hang', {});
    void impatient.runDue();
    await expect.poll(() => job(hung)).toMatchObject({ status: 'RUNNING' });
    await impatient.stop();
    expect(signal?.aborted).toBe(true);
    // Its lease ends now, not 30 s later; the attempt counts, as for a worker that died.
    expect(await job(hung)).toMatchObject({ status: 'RUNNING', attempts: 1, lockedUntil: clock.now(), lastError: null });
    expect(await impatient.runDue()).toBe(0);
    await worker({ hang: async () => {} }).runDue();
    expect(await job(hung)).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
  });

  it('stop() hands back a job whose handler ends when told to, without counting it as failed', async () => {
    const heeding = worker(
      { heed: (_payload, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))) },
      { stopTimeoutMs: 20 },
    );
    const id = await queue.enqueue('heed', {}, { maxAttempts: 1 });
    void heeding.runDue();
    await expect.poll(() => job(id)).toMatchObject({ status: 'RUNNING' });
    await heeding.stop();
    expect(await job(id)).toMatchObject({ status: 'RUNNING', attempts: 1, lockedUntil: clock.now(), lastError: null });
    expect(logger.lines).toEqual([]);
  });

  /** A handler that records each payload it starts and holds every job until `release()`. */
  function holding() {
    const started: unknown[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler: JobHandler = async (payload) => {
      started.push(payload);
      await released;
    };
    return { started, handler, release };
  }

  it('runs a lane on slots of its own: jobs of other queues never wait for its busy slots', async () => {
    const deliveries = holding();
    const internal: unknown[] = [];
    const w = worker(
      { deliver: deliveries.handler, purge: async (payload) => void internal.push(payload) },
      { concurrency: 1, lanes: [{ queues: ['deliver'], concurrency: 2 }] },
    );
    for (let n = 0; n < 5; n++) await queue.enqueue('deliver', { n });
    clock.advance(SECOND);
    await queue.enqueue('purge', { n: 'ccv' });
    const pass = w.runDue();
    await expect.poll(() => internal).toEqual([{ n: 'ccv' }]);
    expect(deliveries.started).toEqual([{ n: 0 }, { n: 1 }]);
    deliveries.release();
    expect(await pass).toBe(6);
  });

  it('claims a fair lane round-robin by group, then target, within the caps', async () => {
    const held = holding();
    const w = worker({ deliver: held.handler }, { lanes: [{ queues: ['deliver'], concurrency: 4, caps: { perGroup: 2, perTarget: 1 } }] });
    // Account A floods two endpoints first; account B's two jobs for one endpoint come later.
    for (let n = 0; n < 20; n++) {
      await queue.enqueue('deliver', { job: `A${n}` }, { group: 'A', target: `a${n % 2}` });
      clock.advance(SECOND);
    }
    for (let n = 0; n < 2; n++) {
      await queue.enqueue('deliver', { job: `B${n}` }, { group: 'B', target: 'b' });
      clock.advance(SECOND);
    }
    const pass = w.runDue();
    try {
      await expect.poll(() => held.started.length).toBe(3);
      await sleep(200);
      // One job per endpoint, at most two per account: B's first job runs beside A's, not after A's twenty.
      expect(held.started).toEqual([{ job: 'A0' }, { job: 'B0' }, { job: 'A1' }]);
    } finally {
      held.release();
    }
    expect(await pass).toBe(22);
  });

  it('postpones the pending jobs of a target that backs off', async () => {
    const ids = [await queue.enqueue('deliver', {}, { target: 'slow' }), await queue.enqueue('deliver', {}, { target: 'slow' })];
    const other = await queue.enqueue('deliver', {}, { target: 'fine' });
    const until = new Date(clock.now().getTime() + 60 * SECOND);
    expect(await queue.postpone('slow', until)).toBe(2);
    for (const id of ids) expect(await job(id)).toMatchObject({ status: 'PENDING', runAt: until });
    expect(await job(other)).toMatchObject({ runAt: clock.now() });
    const w = worker({ deliver: async () => {} });
    expect(await w.runDue()).toBe(1);
    for (const id of ids) expect(await job(id)).toMatchObject({ status: 'PENDING' });
    clock.advance(60 * SECOND);
    await w.runDue();
    for (const id of ids) expect(await job(id)).toMatchObject({ status: 'SUCCEEDED' });
  });
});
