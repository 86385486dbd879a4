import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/prisma/client';
import { applyMigrations, findMigrationsDir, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './migrations/apply';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
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
   * Hears the notifications of a channel (LISTEN) until close(), on the process's connection of
   * its own (not one of the pool's), which is opened again after it fails. Returns at once;
   * `listening` says when notifications arrive, `lost` when they may have been missed.
   */
  listen(channel: string, listener: ChannelListener): void;
  /** This process's presence (presence.ts), held from the first call until close(), on the same connection as `listen`. */
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
    const session = ownSession(options.url, pool);
    return {
      prisma,
      kind: 'postgres',
      migrate: (dir) => migrate(pgPoolExecutor(pool), dir),
      listen: (channel, listener) => session.listen(channel, listener),
      presence: () => session.presence(),
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
        await session.stop();
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  const pglite = new PGlite({ dataDir: options.dataDir, extensions: PGLITE_EXTENSIONS });
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
      // A failure would be the database's own, and shows at the next statement.
      void pglite.query(PRESENCE_SQL.take, [PRESENCE_SQL.class, number]).catch(() => undefined);
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

/**
 * The process's connection of its own (not one of the pool's): it LISTENs on the channels asked
 * for and holds the process's presence lock (presence.ts). It is opened at the first of either,
 * and opened again after it fails (after a pause that doubles up to a maximum), with its channels
 * and its lock, until stopped. Others' presence is read through the pool.
 */
function ownSession(url: string, pool: pg.Pool) {
  const channels = new Map<string, ChannelListener>();
  let number: number | undefined;
  let client: pg.Client | undefined;
  /** The current client has LISTENed and taken the lock: what is asked from now on is done on it at once. */
  let ready = false;
  let started = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = REOPEN_MS.first;

  const listenOn = (current: pg.Client, channel: string) => current.query(`LISTEN "${channel.replace(/"/g, '""')}"`);

  /** Takes the presence lock, with a new number while another process holds this one. */
  async function holdPresence(current: pg.Client) {
    while (!(await current.query<{ taken: boolean }>(PRESENCE_SQL.take, [PRESENCE_SQL.class, number])).rows[0]?.taken) {
      number = newPresenceNumber();
    }
  }

  const failed = (current: pg.Client, error: Error) => {
    if (client !== current || stopped) return;
    client = undefined;
    ready = false;
    current.end().catch(() => undefined);
    for (const listener of channels.values()) listener.lost(error);
    retry = setTimeout(connect, pause);
    pause = Math.min(pause * 2, REOPEN_MS.max);
  };

  /** Everything asked so far, including what is asked meanwhile; then ready, with no pause in between. */
  async function open(current: pg.Client) {
    for (const statement of KEEPALIVE) await current.query(statement);
    const listened = new Set<string>();
    let locked = false;
    for (;;) {
      if (number !== undefined && !locked) {
        await holdPresence(current);
        locked = true;
        continue;
      }
      const channel = [...channels.keys()].find((name) => !listened.has(name));
      if (channel === undefined) break;
      await listenOn(current, channel);
      listened.add(channel);
    }
    if (client !== current) return;
    ready = true;
    pause = REOPEN_MS.first;
    for (const listener of channels.values()) listener.listening();
  }

  function connect() {
    const current = new pg.Client({ connectionString: url, keepAlive: true });
    client = current;
    current.on('notification', (message) => channels.get(message.channel)?.notified(message.payload ?? ''));
    current.on('error', (error) => failed(current, error));
    current.on('end', () => failed(current, new Error('the connection closed')));
    current
      .connect()
      .then(() => (client === current && !stopped ? open(current) : undefined))
      .catch((error: Error) => failed(current, error));
  }

  /** Does `work` on the session now if it is ready; else its opening does it. */
  function whenOpen(work: (current: pg.Client) => Promise<void>) {
    const current = client;
    if (current && ready) work(current).catch((error: Error) => failed(current, error));
    else if (!started) {
      started = true;
      connect();
    }
  }

  const presence: Presence = {
    get number() {
      return number ?? 0;
    },
    async isPresent(other) {
      const { rows } = await pool.query<{ present: boolean }>(PRESENCE_SQL.present, [PRESENCE_SQL.class, other]);
      return rows[0]?.present === true;
    },
  };

  return {
    listen(channel: string, listener: ChannelListener) {
      channels.set(channel, listener);
      whenOpen(async (current) => {
        await listenOn(current, channel);
        listener.listening();
      });
    },
    presence(): Presence {
      if (number === undefined) {
        number = newPresenceNumber();
        whenOpen(holdPresence);
      }
      return presence;
    },
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
