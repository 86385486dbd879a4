import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/prisma/client';
import { applyMigrations, findMigrationsDir, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './migrations/apply';
import { preparedStatementName, runStatementsOnAdapter } from './statements';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'embedded';
  /** Runs `fn` while holding a PostgreSQL session advisory lock (one process at a time). */
  exclusively<T>(lockKey: number, fn: () => Promise<T>): Promise<T>;
  /** Applies pending migrations from prisma/migrations (found above this package or the bundle). */
  migrate(migrationsDir?: string): Promise<{ applied: string[] }>;
  /**
   * Hears the notifications of a channel (LISTEN) until close(), on a connection of its own (not
   * one of the pool's) that is opened again after it fails. Returns at once; `listening` says
   * when notifications arrive, `lost` when they may have been missed.
   */
  listen(channel: string, listener: ChannelListener): void;
  close(): Promise<void>;
}

export interface ChannelListener {
  notified(payload: string): void;
  /** From now on every notification arrives (again). */
  listening(): void;
  /** The connection failed: notifications may be missed until `listening` is called again. */
  lost(error: Error): void;
}

/** How long a failed LISTEN connection waits before it is opened again, doubling up to the maximum. */
const RELISTEN_MS = { first: 500, max: 30_000 };

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
    const adapter = new PrismaPg(pool, { statementNameGenerator: preparedStatementName });
    const prisma = new PrismaClient({ adapter, errorFormat: 'minimal' });
    runStatementsOnAdapter(prisma, await adapter.connect());
    const listeners: Array<{ stop(): Promise<void> }> = [];
    return {
      prisma,
      kind: 'postgres',
      migrate: (dir) => migrate(pgPoolExecutor(pool), dir),
      listen(channel, listener) {
        listeners.push(listenWithClient(options.url!, channel, listener));
      },
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
        for (const listener of listeners.splice(0)) await listener.stop();
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
  const unlisteners: Array<Promise<() => Promise<void>>> = [];
  return {
    prisma,
    kind: 'embedded',
    migrate: (dir) => migrate(pgliteExecutor(pglite), dir),
    listen(channel, listener) {
      const unlisten = pglite.listen(channel, (payload) => listener.notified(payload));
      unlisteners.push(unlisten);
      void unlisten.then(() => listener.listening(), listener.lost);
    },
    // The data folder is locked to this process, which is therefore alone already.
    exclusively: (_lockKey, fn) => fn(),
    async close() {
      for (const unlisten of unlisteners.splice(0)) await unlisten.then((stop) => stop()).catch(() => undefined);
      await prisma.$disconnect();
      await pglite.close();
      release();
    },
  };
}

/** LISTEN on a client of its own, opened again (after a pause) whenever it fails, until stopped. */
function listenWithClient(url: string, channel: string, listener: ChannelListener) {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  let pause = RELISTEN_MS.first;

  const failed = (current: pg.Client, error: Error) => {
    if (client !== current || stopped) return;
    client = undefined;
    current.end().catch(() => undefined);
    listener.lost(error);
    retry = setTimeout(connect, pause);
    pause = Math.min(pause * 2, RELISTEN_MS.max);
  };

  function connect() {
    const current = new pg.Client({ connectionString: url });
    client = current;
    current.on('notification', (message) => {
      if (message.channel === channel) listener.notified(message.payload ?? '');
    });
    current.on('error', (error) => failed(current, error));
    current.on('end', () => failed(current, new Error('the LISTEN connection closed')));
    current
      .connect()
      .then(() => current.query(`LISTEN "${channel.replace(/"/g, '""')}"`))
      .then(() => {
        if (client !== current || stopped) return;
        pause = RELISTEN_MS.first;
        listener.listening();
      })
      .catch((error: Error) => failed(current, error));
  }

  connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
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
