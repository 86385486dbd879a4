// The runtime migration runner, run at every gateway start: plain SQL, no schema engine.
// It keeps `_prisma_migrations` exactly as `prisma migrate deploy` does, so Prisma's tools agree with it.
import { randomUUID } from 'node:crypto';
import { type MigrationFile, readMigrations } from './files.js';
import type { SqlConnection, SqlExecutor } from './sql-executor.js';

export { findMigrationsDir } from './files.js';
export { pgliteExecutor, pgPoolExecutor, type SqlConnection, type SqlExecutor } from './sql-executor.js';

// Prisma's own key: this runner and `prisma migrate` exclude each other too.
const ADVISORY_LOCK_KEY = 72707369;

// Prisma's DDL for the table, column for column.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished: boolean;
  rolled_back: boolean;
}

export interface ApplyOptions {
  /** `prisma/migrations`; see findMigrationsDir. */
  migrationsDir: string;
  log?: (msg: string) => void;
}

/**
 * Applies every pending `migration.sql` in name order, each in its own transaction.
 * Throws before applying anything if an applied migration's file changed or a failed one is recorded.
 */
export async function applyMigrations(db: SqlExecutor, opts: ApplyOptions): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => {});
  const migrations = await readMigrations(opts.migrationsDir);
  return db.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      await conn.exec(CREATE_MIGRATIONS_TABLE);
      const { rows } = await conn.query<MigrationRow>(
        `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
         FROM "_prisma_migrations"`,
      );
      // Rows marked rolled back are history only: Prisma treats such a migration as not applied.
      const failed = rows.filter((r) => !r.finished && !r.rolled_back).map((r) => r.migration_name);
      if (failed.length > 0) {
        throw new Error(
          `Refusing to start: migration ${failed.join(', ')} failed earlier (see "_prisma_migrations".logs). ` +
            `Fix it, then set rolled_back_at on its row (what \`prisma migrate resolve --rolled-back\` does).`,
        );
      }
      const applied = new Map(rows.filter((r) => r.finished && !r.rolled_back).map((r) => [r.migration_name, r.checksum]));
      const edited = migrations.filter((m) => applied.has(m.name) && applied.get(m.name) !== m.checksum);
      if (edited.length > 0) {
        throw new Error(
          `Refusing to start: applied migration ${edited.map((m) => m.name).join(', ')} was changed on disk ` +
            `(checksum differs from "_prisma_migrations"). Restore the file and put the change in a new migration.`,
        );
      }

      const pending = migrations.filter((m) => !applied.has(m.name));
      for (const migration of pending) {
        log(`Applying migration ${migration.name}`);
        await applyOne(conn, migration);
      }
      log(pending.length > 0 ? `Applied ${pending.length} migration(s)` : 'Database schema is up to date');
      return { applied: pending.map((m) => m.name) };
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  });
}

async function applyOne(conn: SqlConnection, m: MigrationFile): Promise<void> {
  await conn.exec('BEGIN');
  try {
    await conn.exec(m.sql);
    // now() is the transaction's start, clock_timestamp() the present.
    await conn.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
      [randomUUID(), m.checksum, m.name],
    );
    await conn.exec('COMMIT');
  } catch (error) {
    await conn.exec('ROLLBACK');
    const message = error instanceof Error ? error.message : String(error);
    // Recorded as Prisma records a failed migration, so every later start refuses until someone looks.
    await conn.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, applied_steps_count) VALUES ($1, $2, $3, $4, 0)`,
      [randomUUID(), m.checksum, m.name, message],
    );
    throw new Error(`Migration ${m.name} failed and was rolled back: ${message}`, { cause: error });
  }
}
