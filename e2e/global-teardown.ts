import { rmSync } from 'node:fs';
import { dropDatabase } from './database';

/** Removes the temporary data folder and, on PostgreSQL, the database of the run. */
export default function teardown() {
  if (process.env.E2E_DATA_DIR) rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
  if (process.env.E2E_SERVER_URL && process.env.E2E_DATABASE_URL) dropDatabase(process.env.E2E_SERVER_URL, process.env.E2E_DATABASE_URL);
}
