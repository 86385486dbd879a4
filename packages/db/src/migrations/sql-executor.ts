import type { PGliteInterface } from '@electric-sql/pglite';
import type { Pool } from 'pg';

/** One database session: statements run in order, and session state (transactions, locks) persists. */
export interface SqlConnection {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  /** Runs a script of one or more statements, without parameters. */
  exec(sql: string): Promise<void>;
}

export interface SqlExecutor {
  /** Runs `fn` on one dedicated connection, held until it settles. */
  withConnection<T>(fn: (conn: SqlConnection) => Promise<T>): Promise<T>;
}

export function pgPoolExecutor(pool: Pool): SqlExecutor {
  return {
    async withConnection(fn) {
      const client = await pool.connect();
      try {
        const result = await fn({
          query: async (sql, params) => ({ rows: (await client.query(sql, params)).rows }),
          // Without parameters pg uses the simple query protocol, which accepts several statements.
          exec: async (sql) => void (await client.query(sql)),
        });
        client.release();
        return result;
      } catch (error) {
        // Destroy rather than recycle: the session may still hold a lock or an open transaction.
        client.release(true);
        throw error;
      }
    },
  };
}

/** PGlite has a single session, so callers take turns on it (its advisory locks cannot tell them apart). */
export function pgliteExecutor(db: PGliteInterface): SqlExecutor {
  const conn: SqlConnection = {
    query: async (sql, params) => db.query(sql, params),
    exec: async (sql) => void (await db.exec(sql)),
  };
  let turn: Promise<unknown> = Promise.resolve();
  return {
    withConnection(fn) {
      const run = turn.then(() => fn(conn));
      turn = run.catch(() => {});
      return run;
    },
  };
}
