import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { createDatabase } from './database';

/**
 * End-to-end tests run against the built apps started the way a user starts them: the gateway
 * (`apps/gateway/dist/main.js`) and the dashboard (`server.mjs`, `next start` with the client's address), on a new database made for the
 * run — on the PostgreSQL server of DATABASE_URL when it is set (dropped at the end), else the
 * embedded one in a temporary folder. Browser tests drive Debian's Chromium.
 */
// Workers load this file again; they inherit what the main process made through the environment.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
const serverUrl = process.env.DATABASE_URL || '';
const databaseUrl = process.env.E2E_DATABASE_URL ?? (serverUrl ? createDatabase(serverUrl) : '');
const gatewayUrl = `http://127.0.0.1:${process.env.E2E_GATEWAY_PORT ?? 3199}`;
const dashboardUrl = `http://127.0.0.1:${process.env.E2E_DASHBOARD_PORT ?? 3198}`;
const metricsUrl = `http://127.0.0.1:${process.env.E2E_METRICS_PORT ?? 3196}/metrics`;
// The fake Stripe (packages/provider-fakes), where the gateway sends stripe providers' calls.
const fakeStripeUrl = `http://127.0.0.1:${process.env.E2E_FAKE_STRIPE_PORT ?? 3195}`;
// Where the gateway sends nab_transact providers' calls: the fake NAB Transact the spec that uses it
// starts there itself (outcome-unknown.spec.ts: it makes NAB lose answers), for as long as it runs.
const fakeNabUrl = `http://127.0.0.1:${process.env.E2E_FAKE_NAB_PORT ?? 3194}`;
Object.assign(process.env, {
  E2E_DATA_DIR: dataDir,
  E2E_SERVER_URL: serverUrl,
  E2E_DATABASE_URL: databaseUrl,
  E2E_GATEWAY_URL: gatewayUrl,
  E2E_DASHBOARD_URL: dashboardUrl,
  E2E_METRICS_URL: metricsUrl,
  E2E_FAKE_STRIPE_URL: fakeStripeUrl,
  E2E_FAKE_NAB_URL: fakeNabUrl,
});

const chromium = {
  ...devices['Desktop Chrome'],
  baseURL: dashboardUrl,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};
const signedIn = join(dataDir, 'staff-session.json');

export default defineConfig({
  testDir: 'tests',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // Generous limits: on a loaded CI machine (2 cores, both apps and Chromium) steps slow down.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: process.env.CI ? 'list' : 'line',
  // Traces and videos would record what is typed into card fields: none are kept.
  use: { trace: 'off', video: 'off', screenshot: 'off' },
  projects: [
    { name: 'api', testMatch: 'api-*.spec.ts', use: { baseURL: gatewayUrl } },
    { name: 'sign-in', testMatch: 'sign-in.setup.ts', use: { ...chromium } },
    {
      name: 'browser',
      testMatch: '*.spec.ts',
      testIgnore: ['api-*.spec.ts', 'key-rotation.spec.ts'],
      dependencies: ['sign-in'],
      use: { ...chromium, storageState: signedIn },
    },
    // Last: it replaces the demo account's secret key, which the other tests use.
    {
      name: 'key rotation',
      testMatch: 'key-rotation.spec.ts',
      dependencies: ['api', 'browser'],
      use: { ...chromium, storageState: signedIn },
    },
  ],
  webServer: [
    {
      // Test code, run from the gateway's folder, which has tsx.
      command: `node --import tsx ../../packages/provider-fakes/src/stripe/cli.ts --port ${new URL(fakeStripeUrl).port}`,
      cwd: '../apps/gateway',
      url: `${fakeStripeUrl}/_fake/state`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: 'node --enable-source-maps ../apps/gateway/dist/main.js',
      url: `${gatewayUrl}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: new URL(gatewayUrl).port,
        GATEWAY_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        GATEWAY_DASHBOARD_URL: dashboardUrl,
        GATEWAY_METRICS_PORT: new URL(metricsUrl).port,
        GATEWAY_PROVIDER_ENDPOINTS: `stripe=${fakeStripeUrl},nab_transact=${fakeNabUrl}`,
        // Webhook receivers of the tests listen on 127.0.0.1 (the API tests check the refusal of private addresses).
        GATEWAY_WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    },
    {
      command: `node server.mjs -H 127.0.0.1 -p ${new URL(dashboardUrl).port}`,
      cwd: '../apps/dashboard',
      url: `${dashboardUrl}/sign-in`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { GATEWAY_URL: gatewayUrl, NEXT_TELEMETRY_DISABLED: '1' },
    },
  ],
});
