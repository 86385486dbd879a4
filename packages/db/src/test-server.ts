import pg from 'pg';

/** The PostgreSQL server tests make throwaway databases on (TEST_DATABASE_URL to choose another). */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';

/**
 * Whether that server answers. Tests that need PostgreSQL itself (several connections, another
 * process) are skipped without one, so `npm test` runs on a machine that has only Node; but not
 * in CI, which has one: there a server that does not answer fails the run instead of hiding tests.
 */
export async function testServerReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (process.env.CI) throw error;
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The backends a test file runs on: all of them, less PostgreSQL when its server does not answer. */
export async function reachableBackends<T extends { backend: 'PostgreSQL' | 'PGlite' }>(backends: T[]): Promise<T[]> {
  const onPostgres = await testServerReachable();
  return backends.filter(({ backend }) => onPostgres || backend !== 'PostgreSQL');
}
