import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Database, type Db } from '@gateway/db';
import { TEST_SERVER_URL } from '@gateway/db/test-server';
import type { JobHandler } from '../handler';
import type { Clock, Logger } from '@gateway/core';

/** An empty PostgreSQL database of its own; `drop()` removes it once the test closed its connections. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gw_jobs_test_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ url: TEST_SERVER_URL, poolSize: 1 });
  await admin.prisma.$executeRawUnsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // A closed pool's sockets, or a killed process's, may still be on their way out. Waiting for
      // them beats DROP … WITH (FORCE), whose "terminating connection" would reach a pool with no
      // error listener left.
      for (let tries = 0; tries < 50 && (await connectionsTo(admin, name)) > 0; tries += 1) await sleep(100);
      await admin.prisma.$executeRawUnsafe(`DROP DATABASE "${name}"`);
      await admin.close();
    },
  };
}

async function connectionsTo(admin: Database, name: string): Promise<number> {
  const [row] = await admin.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${name}`;
  return row!.n;
}

/** Opens PostgreSQL at `url`, or in-memory PGlite without one, with the committed migrations applied. */
export async function openMigrated(url?: string): Promise<Database> {
  const database = await openDatabase(url ? { url, poolSize: 4 } : {});
  await database.migrate();
  await database.prisma.$executeRawUnsafe(`CREATE TABLE "Execution" ("jobId" TEXT NOT NULL, "by" TEXT NOT NULL)`);
  await database.prisma.$executeRawUnsafe(`CREATE TABLE "Effect" ("jobId" TEXT NOT NULL, "by" TEXT NOT NULL)`);
  return database;
}

export function manualClock(start = '2026-01-01T00:00:00.000Z'): Clock & { advance(ms: number): void } {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

export const realClock: Clock = { now: () => new Date() };

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (obj: object, msg?: string) => void lines.push(`${msg} ${JSON.stringify(obj)}`);
  return { lines, debug: write, info: write, warn: write, error: write };
}

/**
 * Records every run of a job in "Execution" (at once) and its effect in "Effect", the latter in one
 * transaction with the job's completion. `stall` keeps that transaction open for the given time.
 */
export function effectHandler(db: Db, by: string, stall: (payload: unknown) => number = () => 0): JobHandler {
  return async (payload, ctx) => {
    await db.$executeRaw`INSERT INTO "Execution" ("jobId", "by") VALUES (${ctx.jobId}, ${by})`;
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO "Effect" ("jobId", "by") VALUES (${ctx.jobId}, ${by})`;
      await sleep(stall(payload));
      await ctx.complete(tx);
    });
  };
}
