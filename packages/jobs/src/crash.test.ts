import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Database } from '@gateway/db';
import { testServerReachable } from '@gateway/db/test-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createJobQueue } from './queue';
import { createPostgresDatabase, effectHandler, openMigrated, realClock, recordingLogger } from './test/support';
import { startWorker } from './worker';

describe.skipIf(!(await testServerReachable()))('a worker killed mid-work (PostgreSQL)', () => {
  let server: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;

  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await openMigrated(server.url);
  });
  afterAll(async () => {
    await database.close();
    await server.drop();
  });

  const rows = (sql: TemplateStringsArray) => database.prisma.$queryRaw<Record<string, unknown>[]>(sql);

  it('finishes the jobs of a worker killed mid-work, each effect exactly once', async () => {
    const queue = createJobQueue({ db: database.prisma, clock: realClock });
    const start = Date.now();
    // Four quick jobs come first; the worker then stalls on the last two, inside their transactions.
    for (let n = 0; n < 6; n += 1) {
      await queue.enqueue('settle', { n, stall: n >= 4 }, { runAt: new Date(start - 10_000 + n * 1000) });
    }

    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'test/crash-worker.ts'), server.url], {
      stdio: 'inherit',
      // `--import tsx` resolves from the working directory: this package has tsx.
      cwd: join(import.meta.dirname, '..'),
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const stalledRuns = () =>
      rows`SELECT count(*)::int AS n FROM "Execution" WHERE "jobId" IN (SELECT "id" FROM "Job" WHERE "payload"->>'stall' = 'true')`;
    await expect.poll(stalledRuns, { timeout: 10_000, interval: 50 }).toEqual([{ n: 2 }]);
    // Both stalled jobs have started: whatever their transactions wrote is not committed.
    child.kill('SIGKILL');
    await once(child, 'exit');

    expect(await rows`SELECT "payload"->>'n' AS n, "status"::text FROM "Job" ORDER BY "runAt"`).toEqual(
      ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'RUNNING', 'RUNNING'].map((status, n) => ({ n: String(n), status })),
    );

    const worker = startWorker({
      db: database.prisma,
      clock: realClock,
      logger: recordingLogger(),
      handlers: { settle: effectHandler(database.prisma, 'restarted') },
      leaseMs: 500,
      pollMs: 50,
    });
    await expect
      .poll(() => rows`SELECT count(*)::int AS n FROM "Job" WHERE "status" = 'SUCCEEDED'`, { timeout: 5_000, interval: 50 })
      .toEqual([{ n: 6 }]);
    await worker.stop();

    expect(
      await rows`
      SELECT j."payload"->>'n' AS n, j."attempts",
             (SELECT string_agg(e."by", ',' ORDER BY e."by") FROM "Execution" e WHERE e."jobId" = j."id") AS runs,
             (SELECT string_agg(e."by", ',' ORDER BY e."by") FROM "Effect" e WHERE e."jobId" = j."id") AS effects
      FROM "Job" j ORDER BY j."runAt"`,
    ).toEqual([
      ...[0, 1, 2, 3].map((n) => ({ n: String(n), attempts: 1, runs: 'crashed', effects: 'crashed' })),
      ...[4, 5].map((n) => ({ n: String(n), attempts: 2, runs: 'crashed,restarted', effects: 'restarted' })),
    ]);
  }, 15_000);
});
