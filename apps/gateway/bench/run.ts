// Benchmarks the built gateway (apps/gateway/dist/main.js) as it is deployed: a child process of
// its own on a fresh PostgreSQL database, with one account and one zero-latency simulated provider,
// loaded by autocannon from this process, then one batch charged by its worker. See docs/benchmarks.md.
//
//   npm run bench                                   build, then run every scenario
//   BENCH_DURATION=30 BENCH_CONNECTIONS=50 BENCH_BATCH_ROWS=20000 npm run bench
//   BENCH_ONLY=batch npm run bench                  the batch figure alone (or =charge)
//   DATABASE_URL=postgresql://…/postgres npm run bench   PostgreSQL server to create the database on
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { NewProvider } from '@gateway/api';
import { newMasterKey } from '@gateway/core';
import autocannon from 'autocannon';
import pg from 'pg';
import { measureBatch } from './batch';
import { chargeCard } from './charge-card';
import { coresOver, cpuSeconds } from './cpu';
import { seedAccount, startChildGateway, type ChildGateway } from './child-gateway';

/** What a scenario needs to build its requests. */
export interface Target {
  secretKey: string;
  providerId: string;
}

/** The gateway under test: its URL and process. */
export type Gateway = Pick<ChildGateway, 'url' | 'child'>;

/** One request that autocannon repeats for the whole run. */
export interface Scenario {
  name: string;
  request(target: Target): { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
}

const SCENARIOS: Scenario[] = [chargeCard];

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN_JS = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL || 'postgresql://root@127.0.0.1:5432/postgres';
const WARMUP_S = 2;
const DURATION_S = positiveInteger('BENCH_DURATION', 15);
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 20);
const BATCH_ROWS = positiveInteger('BENCH_BATCH_ROWS', 10_000);
/** `charge` or `batch`: that part alone. */
const ONLY = process.env.BENCH_ONLY || undefined;

/** The provider every scenario charges: the simulator answers at once, so the gateway is what is measured. */
const PROVIDER: NewProvider = {
  type: 'dummy',
  name: 'Bench (zero latency)',
  currency: 'AUD',
  country: 'AUS',
  latency: { minMs: 0, maxMs: 0 },
  fees: [
    { isInternationalCard: false, transactionCost: '0.10', transactionPercentage: '1' },
    { isInternationalCard: true, transactionCost: '0.30', transactionPercentage: '3' },
  ],
};

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

// Undone in reverse order at the end, on failure and on Ctrl-C alike.
const cleanups: Array<() => Promise<void>> = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const undo of cleanups.splice(0).reverse()) await undo().catch((err: unknown) => console.error('clean-up failed:', err));
  })();
  return cleaning;
}

/** The autocannon run in progress, which Ctrl-C stops. */
let running: autocannon.Instance | undefined;
function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    running = autocannon(options, (error: unknown, result) => {
      running = undefined;
      if (cleaning) reject(new Error('interrupted'));
      else if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
  });
}

// Ctrl-C may arrive twice (from the terminal and relayed by tsx): both wait for the same clean-up.
// The load stops first, or the gateway would never finish its requests and shut down.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!cleaning) console.error(`\n${signal}: stopping`);
    running?.stop();
    void cleanUp().then(() => process.exit(128 + constants.signals[signal]));
  });
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  try {
    await client.connect();
    await client.query(sql);
  } catch (error) {
    throw new Error(`PostgreSQL at ${new URL(SERVER_URL).host}: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A new database on the server, dropped at clean-up; returns its URL. */
async function createDatabase(): Promise<string> {
  const name = `gateway_bench_${Date.now()}`;
  await admin(`CREATE DATABASE ${name}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function measure(scenario: Scenario, gateway: Gateway, target: Target): Promise<void> {
  const { path, ...request } = scenario.request(target);
  const url = `${gateway.url}${path}`;
  // One request first, so that a broken set-up shows its answer rather than a count of non-2xx.
  const probe = await fetch(url, request);
  const probeBody = await probe.text();
  if (!probe.ok) throw new Error(`${scenario.name} answered ${probe.status}: ${probeBody}`);

  const options = { url, ...request, connections: CONNECTIONS };
  console.log(`\n${scenario.name}: warming up for ${WARMUP_S} s, then measuring for ${DURATION_S} s with ${CONNECTIONS} connections…`);
  check(scenario, 'warm-up', await load({ ...options, duration: WARMUP_S }));
  const gatewayBefore = cpuSeconds(gateway.child.pid);
  const ownBefore = process.cpuUsage();
  const result = await load({ ...options, duration: DURATION_S });
  const gatewayAfter = cpuSeconds(gateway.child.pid);
  const own = process.cpuUsage(ownBefore);
  check(scenario, 'run', result);

  const { requests, latency } = result;
  const cores = (seconds: number | undefined) => coresOver(seconds, result.duration);
  const gatewayCpu = gatewayBefore === undefined || gatewayAfter === undefined ? undefined : gatewayAfter - gatewayBefore;
  console.log(`  requests/s     ${requests.average.toFixed(1)}  (${requests.total} requests in ${result.duration.toFixed(1)} s)`);
  console.log(
    `  latency (ms)   p50 ${latency.p50}  p97.5 ${latency.p97_5}  p99 ${latency.p99}  avg ${latency.average.toFixed(1)}  max ${latency.max}`,
  );
  console.log(`  errors         ${result.errors}  (non-2xx ${result.non2xx}, timeouts ${result.timeouts})`);
  console.log(`  CPU            gateway ${cores(gatewayCpu)}, load generator ${cores((own.user + own.system) / 1e6)}`);
}

/** A run counts only if every request got a 2xx answer. */
function check(scenario: Scenario, phase: string, result: autocannon.Result): void {
  if (result.errors === 0 && result.non2xx === 0 && result['2xx'] > 0) return;
  const statuses = JSON.stringify(result.statusCodeStats ?? {});
  throw new Error(
    `${scenario.name} ${phase} is invalid: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ` +
      `${result.errors} errors (${result.timeouts} timeouts); status codes ${statuses}`,
  );
}

try {
  if (ONLY !== undefined && ONLY !== 'charge' && ONLY !== 'batch') throw new Error(`BENCH_ONLY must be charge or batch, got "${ONLY}"`);
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run \`npm run bench\` at the repository root, which builds it first`);
  const databaseUrl = await createDatabase();
  // Given to the gateway, so that what the seed seals (provider credentials) opens there.
  const masterKeys = `bench:${newMasterKey()}`;
  const gateway = await startChildGateway({ args: [MAIN_JS], cwd: ROOT, databaseUrl, masterKeys });
  cleanups.push(() => gateway.stop());
  const target = await seedAccount(databaseUrl, masterKeys, PROVIDER);
  console.log(
    `gateway ${MAIN_JS} (pid ${gateway.child.pid}, Node ${process.version}) on database ${new URL(databaseUrl).pathname.slice(1)}`,
  );
  if (ONLY !== 'batch') for (const scenario of SCENARIOS) await measure(scenario, gateway, target);
  if (ONLY !== 'charge') await measureBatch(gateway, target, BATCH_ROWS);
} catch (error) {
  console.error(`\n✗ benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
