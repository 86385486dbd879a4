import { openDatabase, type Database } from '@gateway/db';
import { testServerReachable } from '@gateway/db/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from './queue';
import { createPostgresDatabase, effectHandler, openMigrated, realClock, recordingLogger } from './test/support';
import { startWorker } from './worker';

describe.skipIf(!(await testServerReachable()))('workers sharing one PostgreSQL database', () => {
  let server: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let databases: Database[];

  beforeAll(async () => {
    server = await createPostgresDatabase();
    // Two pools, as two gateway instances would have.
    databases = [await openMigrated(server.url), await openDatabase({ url: server.url, poolSize: 4 })];
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.close()));
    await server.drop();
  });

  it('two workers on one PostgreSQL database share 200 jobs and run none twice', async () => {
    const [a, b] = databases as [Database, Database];
    const queue = createJobQueue({ db: a.prisma, clock: realClock });
    for (let n = 0; n < 200; n += 1) await queue.enqueue('settle', { n });

    const workers = [a, b].map((database, i) =>
      startWorker({
        db: database.prisma,
        clock: realClock,
        logger: recordingLogger(),
        handlers: { settle: effectHandler(database.prisma, `worker-${i}`) },
        concurrency: 4,
        pollMs: 3_600_000,
      }),
    );
    const [ranByA, ranByB] = await Promise.all(workers.map((worker) => worker.runDue()));
    await Promise.all(workers.map((worker) => worker.stop()));

    expect(ranByA! + ranByB!).toBe(200);
    expect(ranByA).toBeGreaterThan(0);
    expect(ranByB).toBeGreaterThan(0);
    expect(
      await a.prisma.$queryRaw`
      SELECT (SELECT count(*)::int FROM "Execution") AS executions,
             (SELECT count(DISTINCT "jobId")::int FROM "Execution") AS jobs,
             (SELECT count(*)::int FROM "Effect") AS effects,
             (SELECT count(*)::int FROM "Job" WHERE "status" = 'SUCCEEDED' AND "attempts" = 1) AS succeeded`,
    ).toEqual([{ executions: 200, jobs: 200, effects: 200, succeeded: 200 }]);
  });
});
