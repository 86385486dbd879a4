import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server to create test databases on, or '' to use the embedded database. */
    databaseServerUrl: string;
    /** Name prefix of this run's test databases. */
    databasePrefix: string;
  }
}

async function withServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * With DATABASE_URL set, every test gateway gets a new database of its own on that server
 * (harness.ts), named with this run's prefix; whatever a crashed run left is dropped at the end.
 * Without it, every test gateway uses an in-memory embedded database.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL ?? '';
  const prefix = `gateway_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  project.provide('databaseServerUrl', serverUrl);
  project.provide('databasePrefix', prefix);
  if (!serverUrl) return;
  return () =>
    withServer(serverUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
}

export { withServer };
