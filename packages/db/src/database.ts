import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/prisma/client';
import { applyMigrations, findMigrationsDir, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './migrations/apply';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'embedded';
  /** Runs `fn` while holding a PostgreSQL session advisory lock (one process at a time). */
  exclusively<T>(lockKey: number, fn: () => Promise<T>): Promise<T>;
  /** Applies pending migrations from prisma/migrations (found above this package or the bundle). */
  migrate(migrationsDir?: string): Promise<{ applied: string[] }>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql://… for a PostgreSQL server; absent for the embedded database. */
  url?: string;
  /** Folder of the embedded database (PGlite); created when missing. */
  dataDir?: string;
  poolSize?: number;
  /**
   * Told when an idle PostgreSQL connection fails (the server restarted, or closed it): the pool
   * drops that connection and opens another at the next query. Without a listener such an error
   * would stop the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

/**
 * Opens PostgreSQL (DATABASE_URL) or the embedded PGlite database with one generated Prisma client.
 * `dataDir` undefined with no url gives an in-memory embedded database (tests).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    pool.on('error', options.onIdleConnectionError ?? (() => undefined));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), errorFormat: 'minimal' });
    return {
      prisma,
      kind: 'postgres',
      migrate: (dir) => migrate(pgPoolExecutor(pool), dir),
      async exclusively(lockKey, fn) {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
          client.release();
        }
      },
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  const pglite = options.dataDir ? new PGlite(options.dataDir) : new PGlite();
  await pglite.waitReady;
  // PGlite has a single session, so interactive transactions queue behind each other.
  const prisma = new PrismaClient({
    adapter: new PrismaPGlite(pglite),
    errorFormat: 'minimal',
    transactionOptions: { maxWait: 60_000, timeout: 60_000 },
  });
  return {
    prisma,
    kind: 'embedded',
    migrate: (dir) => migrate(pgliteExecutor(pglite), dir),
    // The data folder is locked to this process, which is therefore alone already.
    exclusively: (_lockKey, fn) => fn(),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      release();
    },
  };
}

/**
 * The committed migrations: found above this module (the source tree, or the gateway bundle in
 * apps/gateway/dist), so the gateway applies them whatever directory it was started from.
 */
function migrate(executor: SqlExecutor, migrationsDir = findMigrationsDir(dirname(fileURLToPath(import.meta.url)))) {
  return applyMigrations(executor, { migrationsDir });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PGlite does not lock its folder; two processes writing one folder would corrupt it. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'gateway.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop it, or set DATABASE_URL to use PostgreSQL.`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}
