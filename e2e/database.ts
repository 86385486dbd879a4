import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const pgModule = createRequire(import.meta.url).resolve('pg');

/**
 * Runs one statement on the PostgreSQL server, synchronously: Playwright reads its configuration
 * synchronously, and the servers it starts need their database before any setup hook runs.
 */
function execute(serverUrl: string, sql: string): void {
  const script = `const pg = require(${JSON.stringify(pgModule)});
const client = new pg.Client({ connectionString: process.argv[1] });
client.connect().then(() => client.query(process.argv[2])).then(() => client.end()).catch((e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, serverUrl, sql], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`PostgreSQL refused: ${sql}`);
}

/** A new, empty database on the server for this run; its connection string. */
export function createDatabase(serverUrl: string): string {
  const name = `gateway_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  execute(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function dropDatabase(serverUrl: string, databaseUrl: string): void {
  const name = new URL(databaseUrl).pathname.slice(1);
  execute(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
