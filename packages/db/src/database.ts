import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/prisma/client';
import { applyMigrations, findMigrationsDir, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './migrations/apply';
import { KEEPALIVE, newPresenceNumber, PRESENCE_SQL, type Presence } from './presence';
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
  /** This process's presence (presence.ts), held from the first call until close(). */
  presence(): Presence;
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
const REOPEN_MS = { first: 500, max: 30_000 };

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
    const sessions: Array<{ stop(): Promise<void> }> = [];
    let presence: Presence | undefined;
    return {
      prisma,
      kind: 'postgres',
      migrate: (dir) => migrate(pgPoolExecutor(pool), dir),
      listen(channel, listener) {
        sessions.push(listenOnSession(options.url!, channel, listener));
      },
      presence() {
        if (presence) return presence;
        const held = presenceOnSession(options.url!, pool);
        sessions.push(held);
        return (presence = held);
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
        for (const session of sessions.splice(0)) await session.stop();
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
  let presence: Presence | undefined;
  return {
    prisma,
    kind: 'embedded',
    migrate: (dir) => migrate(pgliteExecutor(pglite), dir),
    listen(channel, listener) {
      const unlisten = pglite.listen(channel, (payload) => listener.notified(payload));
      unlisteners.push(unlisten);
      void unlisten.then(() => listener.listening(), listener.lost);
    },
    presence() {
      if (presence) return presence;
      // One session, kept until the database closes; PGlite runs statements in order, so every
      // later one sees the lock taken.
      const number = newPresenceNumber();
      void pglite.query(PRESENCE_SQL.take, [PRESENCE_SQL.class, number]);
      const isPresent = async (other: number) =>
        (await pglite.query<{ present: boolean }>(PRESENCE_SQL.present, [PRESENCE_SQL.class, other])).rows[0]?.present === true;
      return (presence = { number, isPresent });
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

/** What a connection of its own does each time it is (re)opened, and when it is lost. */
interface OwnSession {
  /** Before it connects: handlers of the client's events (notifications). */
  setUp?(client: pg.Client): void;
  /** Once connected: the session's statements (LISTEN, a lock). */
  opened(client: pg.Client): Promise<void>;
  lost(error: Error): void;
}

/**
 * A connection of its own (not one of the pool's), opened again after it fails, after a pause that
 * doubles up to a maximum, until stopped.
 */
function sessionOfItsOwn(url: string, session: OwnSession) {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  let pause = REOPEN_MS.first;

  const failed = (current: pg.Client, error: Error) => {
    if (client !== current || stopped) return;
    client = undefined;
    current.end().catch(() => undefined);
    session.lost(error);
    retry = setTimeout(connect, pause);
    pause = Math.min(pause * 2, REOPEN_MS.max);
  };

  function connect() {
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    session.setUp?.(current);
    current.on('error', (error) => failed(current, error));
    current.on('end', () => failed(current, new Error('the connection closed')));
    current
      .connect()
      .then(async () => {
        if (client !== current || stopped) return;
        await session.opened(current);
        pause = REOPEN_MS.first;
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

/** LISTEN on a session of its own. */
function listenOnSession(url: string, channel: string, listener: ChannelListener) {
  return sessionOfItsOwn(url, {
    setUp(client) {
      client.on('notification', (message) => {
        if (message.channel === channel) listener.notified(message.payload ?? '');
      });
    },
    async opened(client) {
      await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      listener.listening();
    },
    lost: (error) => listener.lost(error),
  });
}

/**
 * This process's presence lock on a session of its own, taken again when the session is reopened
 * (with a new number if another process took the old one meanwhile); others' presence is read
 * through the pool.
 */
function presenceOnSession(url: string, pool: pg.Pool): Presence & { stop(): Promise<void> } {
  let number = newPresenceNumber();
  const session = sessionOfItsOwn(url, {
    async opened(client) {
      for (const statement of KEEPALIVE) await client.query(statement);
      while (!(await client.query<{ taken: boolean }>(PRESENCE_SQL.take, [PRESENCE_SQL.class, number])).rows[0]?.taken) {
        number = newPresenceNumber();
      }
    },
    lost: () => undefined,
  });
  return {
    get number() {
      return number;
    },
    async isPresent(other) {
      const { rows } = await pool.query<{ present: boolean }>(PRESENCE_SQL.present, [PRESENCE_SQL.class, other]);
      return rows[0]?.present === true;
    },
    stop: () => session.stop(),
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
