import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests run against the built gateway (`apps/gateway/dist/main.js`) started the way a
 * user starts it, on a fresh embedded database in a temporary folder.
 */
// Workers load this file again; they inherit the folder the main process made.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const port = Number(process.env.E2E_GATEWAY_PORT ?? 3199);

export default defineConfig({
  testDir: 'tests',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? 'list' : 'line',
  use: { baseURL: `http://127.0.0.1:${port}` },
  webServer: {
    command: 'node --enable-source-maps ../apps/gateway/dist/main.js',
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), GATEWAY_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  },
});
