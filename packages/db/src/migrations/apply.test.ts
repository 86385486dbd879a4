import { randomBytes } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, findMigrationsDir, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './apply.js';
import { readMigrations } from './files.js';
import { PGLITE_EXTENSIONS } from '../pglite-extensions.js';
import { reachableBackends, TEST_SERVER_URL } from '../test-server.js';

const committedDir = findMigrationsDir(import.meta.dirname);
const committed = (await readMigrations(committedDir)).map((m) => m.name);

interface TestDb {
  executor: SqlExecutor;
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function throwawayPostgres(): Promise<TestDb> {
  const name = `gw_migrations_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // DROP … WITH (FORCE) may still find a closing connection and end it: expected at teardown.
  pool.on('error', () => undefined);
  return {
    executor: pgPoolExecutor(pool),
    query: async (sql) => (await pool.query(sql)).rows,
    async close() {
      await pool.end();
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function inMemoryPglite(): Promise<TestDb> {
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  return {
    executor: pgliteExecutor(db),
    query: async (sql) => (await db.query<Record<string, unknown>>(sql)).rows,
    close: () => db.close(),
  };
}

describe.each(
  await reachableBackends([
    { backend: 'PostgreSQL', open: throwawayPostgres },
    { backend: 'PGlite', open: inMemoryPglite },
  ]),
)('applyMigrations on $backend', ({ open }) => {
  let db: TestDb;
  let scratch: string;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'gw-migrations-'));
    await db.executor.withConnection((conn) => conn.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public'));
  });
  afterEach(() => rm(scratch, { recursive: true, force: true }));

  /** A copy of the committed migrations that a test may change. */
  async function copyOfHistory(): Promise<string> {
    const dir = join(scratch, 'migrations');
    await cp(committedDir, dir, { recursive: true });
    return dir;
  }

  it('applies every committed migration, then nothing', async () => {
    const logs: string[] = [];
    expect(await applyMigrations(db.executor, { migrationsDir: committedDir, log: (m) => logs.push(m) })).toEqual({
      applied: committed,
    });
    expect(logs).toContain(`Applying migration ${committed[0]}`);
    expect(await db.query(`SELECT count(*)::int AS n FROM "Account"`)).toEqual([{ n: 0 }]);
    const rows = await db.query(
      `SELECT migration_name, length(checksum) AS len, applied_steps_count, logs, rolled_back_at,
              finished_at >= started_at AS ordered FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows).toEqual(
      committed.map((name) => ({
        migration_name: name,
        len: 64,
        applied_steps_count: 1,
        logs: null,
        rolled_back_at: null,
        ordered: true,
      })),
    );

    expect(await applyMigrations(db.executor, { migrationsDir: committedDir })).toEqual({ applied: [] });
  });

  it('applies only what is new', async () => {
    const dir = await copyOfHistory();
    await applyMigrations(db.executor, { migrationsDir: dir });
    await mkdir(join(dir, '99990101000000_more'));
    await writeFile(join(dir, '99990101000000_more', 'migration.sql'), `CREATE TABLE "More" ("id" TEXT PRIMARY KEY);`);
    expect(await applyMigrations(db.executor, { migrationsDir: dir })).toEqual({ applied: ['99990101000000_more'] });
  });

  it('refuses to start when an applied migration was edited', async () => {
    const dir = await copyOfHistory();
    await applyMigrations(db.executor, { migrationsDir: dir });
    await appendFile(join(dir, committed[0]!, 'migration.sql'), '\n-- edited\n');
    await expect(applyMigrations(db.executor, { migrationsDir: dir })).rejects.toThrow(
      `applied migration ${committed[0]} was changed on disk`,
    );
  });

  it('rolls a failing migration back, records it as failed and refuses to start until it is resolved', async () => {
    const dir = await copyOfHistory();
    await mkdir(join(dir, '99990101000000_broken'));
    await writeFile(join(dir, '99990101000000_broken', 'migration.sql'), `CREATE TABLE "Half" ("id" TEXT);\nSELECT * FROM "DoesNotExist";`);
    await expect(applyMigrations(db.executor, { migrationsDir: dir })).rejects.toThrow(
      'Migration 99990101000000_broken failed and was rolled back',
    );
    expect(await db.query(`SELECT to_regclass('"Half"') AS t`)).toEqual([{ t: null }]);
    const [failed] = await db.query(
      `SELECT finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations"
       WHERE migration_name = '99990101000000_broken'`,
    );
    expect(failed).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failed!.logs).toMatch(/DoesNotExist/);

    await expect(applyMigrations(db.executor, { migrationsDir: dir })).rejects.toThrow(
      'Refusing to start: migration 99990101000000_broken failed earlier',
    );

    // Resolved the way `prisma migrate resolve --rolled-back` does it, the fixed migration runs.
    await db.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE finished_at IS NULL`);
    await writeFile(join(dir, '99990101000000_broken', 'migration.sql'), `CREATE TABLE "Half" ("id" TEXT);`);
    expect(await applyMigrations(db.executor, { migrationsDir: dir })).toEqual({ applied: ['99990101000000_broken'] });
  });

  it('applies each migration exactly once when two starts race (separate sessions on PostgreSQL)', async () => {
    const [a, b] = await Promise.all([
      applyMigrations(db.executor, { migrationsDir: committedDir }),
      applyMigrations(db.executor, { migrationsDir: committedDir }),
    ]);
    expect([...a.applied, ...b.applied]).toEqual(committed);
    expect(await db.query(`SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`)).toEqual(
      committed.map((migration_name) => ({ migration_name })),
    );
  });
});
