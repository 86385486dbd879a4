import { rmSync } from 'node:fs';

/** Removes the temporary data folder of the gateway the tests started. */
export default function teardown() {
  if (process.env.E2E_DATA_DIR) rmSync(process.env.E2E_DATA_DIR, { recursive: true, force: true });
}
