import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import { statementsOf } from './statements.js';
import { TEST_SERVER_URL, testServerReachable } from './test-server.js';

/** The hot-path statements on PostgreSQL: straight on the driver adapter, as named prepared statements. */
describe.skipIf(!(await testServerReachable()))('statementsOf on PostgreSQL', () => {
  const name = `gw_statements_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_SERVER_URL });
  let database: Database;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(TEST_SERVER_URL);
    url.pathname = `/${name}`;
    // One connection: the prepared statements listed are the ones of the connection that ran them.
    database = await openDatabase({ url: url.toString(), poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  const prepared = () =>
    database.prisma.$queryRawUnsafe<Array<{ name: string; statement: string }>>('SELECT name, statement FROM pg_prepared_statements');

  it('prepares each text once under a name of its own; the client’s own queries stay unnamed', async () => {
    const statements = statementsOf(database.prisma);
    expect(await statements.query('SELECT $1::int + 1 AS n', [1])).toEqual([{ n: 2 }]);
    expect(await statements.query('SELECT $1::int + 1 AS n', [41])).toEqual([{ n: 42 }]);
    expect(await statements.execute('SELECT $1::text AS t', ['x'])).toBe(1);
    const names = await prepared();
    expect(names.map((s) => s.statement).sort()).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::text AS t']);
    expect(names.every((s) => /^gateway_\d+$/.test(s.name))).toBe(true);
    expect(new Set(names.map((s) => s.name)).size).toBe(2);
  });
});
