// Benchmarks the built gateway (apps/gateway/dist/main.js) as it is deployed: a child process of
// its own on a fresh PostgreSQL database, with one account and one zero-latency simulated provider
// (the simulated acquirer in a third process), loaded by autocannon from this process, then one
// batch charged by its worker. See docs/benchmarks.md.
//
//   npm run bench                                   build, then run every scenario
//   BENCH_DURATION=30 BENCH_CONNECTIONS=50 BENCH_BATCH_ROWS=20000 npm run bench
//   BENCH_ONLY=batch npm run bench                  the batch figure alone (or =charge)
//   DATABASE_URL=postgresql://…/postgres npm run bench   PostgreSQL server to create the database on
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NewProvider } from '@gateway/api';
import { newMasterKey } from '@gateway/core';
import autocannon from 'autocannon';
import pg from 'pg';
import { startChildAcquirer, type ChildAcquirer } from './acquirer';
import { findPgbench, measureBaseline } from './baseline';
import { measureBatch } from './batch';
import { soak } from './soak';
import { chargeCard } from './charge-card';
import { coresOver, cpuMeter } from './cpu';
import { callgrindWrapper, instructionsSinceZero, zeroInstructions } from './instructions';
import { seedAccount, startChildGateway, type ChildGateway } from './child-gateway';

/** What a scenario needs to build its requests. */
export interface Target {
  accountId: string;
  secretKey: string;
  providerId: string;
}

/** The gateway under test: its URL and process, and the simulated acquirer's process (measured apart). */
export type Gateway = Pick<ChildGateway, 'url' | 'metricsUrl' | 'child'> & { acquirer: ChildAcquirer['child'] };

/** One request that autocannon repeats for the whole run. */
export interface Scenario {
  name: string;
  request(target: Target): { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The bundle benchmarked: the one `npm run bench` builds, or another build to compare with (BENCH_GATEWAY). */
const MAIN_JS = process.env.BENCH_GATEWAY
  ? resolve(process.env.INIT_CWD ?? '.', process.env.BENCH_GATEWAY)
  : fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL || 'postgresql://root@127.0.0.1:5432/postgres';
/** Seconds of load before the measured run: long enough for V8 to have optimised the hot path (a server runs for days). */
const WARMUP_S = positiveInteger('BENCH_WARMUP', 10);
const DURATION_S = positiveInteger('BENCH_DURATION', 15);
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 20);
/** Gateway processes (GATEWAY_WORKERS): their CPU is counted together. */
const WORKERS = positiveInteger('BENCH_WORKERS', 1);
const BATCH_ROWS = positiveInteger('BENCH_BATCH_ROWS', 10_000);
/**
 * `charge` or `batch`: that part alone; `instructions`: instructions per charge, under callgrind;
 * `soak`: charges at a fixed rate for a long time, memory and event-loop delay read as it goes.
 */
const ONLY = process.env.BENCH_ONLY || undefined;
const MODES = ['charge', 'batch', 'instructions', 'soak'];
const SOAK_RATE = positiveInteger('BENCH_SOAK_RATE', 300);
const SOAK_DURATION_S = positiveInteger('BENCH_SOAK_DURATION', 600);
/** Requests counted by BENCH_ONLY=instructions, after as many to warm up. */
const COUNTED = positiveInteger('BENCH_REQUESTS', 500);
/** A folder: the gateway writes a V8 CPU profile there when it stops (node --cpu-prof). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF || undefined;
/** The production default: what a request costs includes its log lines. */
const LOG_LEVEL = 'info';

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

/** What to show when the run fails (the gateway's last log lines). */
const failureHints: Array<() => string> = [];

function lastLines(file: string, count: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '(unreadable)';
  }
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

/** Measures a scenario under load; answers its requests per second. */
async function measure(scenario: Scenario, gateway: Gateway, target: Target): Promise<number> {
  const { path, ...request } = scenario.request(target);
  const url = `${gateway.url}${path}`;
  // One request first, so that a broken set-up shows its answer rather than a count of non-2xx.
  const probe = await fetch(url, request);
  const probeBody = await probe.text();
  if (!probe.ok) throw new Error(`${scenario.name} answered ${probe.status}: ${probeBody}`);

  const options = { url, ...request, connections: CONNECTIONS };
  console.log(`\n${scenario.name}: warming up for ${WARMUP_S} s, then measuring for ${DURATION_S} s with ${CONNECTIONS} connections…`);
  check(scenario, 'warm-up', await load({ ...options, duration: WARMUP_S }));
  const gatewayCpu = cpuMeter(gateway.child.pid);
  const acquirerCpu = cpuMeter(gateway.acquirer.pid);
  const ownBefore = process.cpuUsage();
  const result = await load({ ...options, duration: DURATION_S });
  const [gatewaySeconds, acquirerSeconds] = [gatewayCpu(), acquirerCpu()];
  const own = process.cpuUsage(ownBefore);
  check(scenario, 'run', result);

  const { requests, latency } = result;
  const cores = (seconds: number | undefined) => coresOver(seconds, result.duration);
  const perRequest = (seconds: number | undefined) =>
    seconds === undefined ? 'n/a' : `${((seconds * 1000) / requests.total).toFixed(2)} ms`;
  console.log(`  requests/s     ${requests.average.toFixed(1)}  (${requests.total} requests in ${result.duration.toFixed(1)} s)`);
  console.log(
    `  latency (ms)   p50 ${latency.p50}  p97.5 ${latency.p97_5}  p99 ${latency.p99}  avg ${latency.average.toFixed(1)}  max ${latency.max}`,
  );
  console.log(`  errors         ${result.errors}  (non-2xx ${result.non2xx}, timeouts ${result.timeouts})`);
  console.log(
    `  CPU            gateway ${cores(gatewaySeconds)}, acquirer ${cores(acquirerSeconds)}, load generator ${cores((own.user + own.system) / 1e6)}`,
  );
  console.log(`  CPU/request    gateway ${perRequest(gatewaySeconds)}, acquirer ${perRequest(acquirerSeconds)}`);
  return requests.average;
}

/**
 * Instructions the gateway executes per request, under callgrind (BENCH_ONLY=instructions). The
 * gateway also works while idle (the job worker polls, metrics are sampled), in proportion to wall
 * time, which callgrind stretches: an idle stretch as long as the counted run is subtracted.
 */
async function countInstructions(scenario: Scenario, gateway: Gateway, target: Target, outDir: string): Promise<void> {
  const { path, ...request } = scenario.request(target);
  const pid = gateway.child.pid!;
  // Few connections: under callgrind the gateway is about 30 times slower, and many requests
  // queued at once would run into its own timeouts (transactions, leases).
  const connections = positiveInteger('BENCH_CONNECTIONS', 2);
  const options = { url: `${gateway.url}${path}`, ...request, connections, timeout: 300 };
  console.log(`\n${scenario.name}: ${COUNTED} requests to warm up, then ${COUNTED} counted, ${connections} connections…`);
  check(scenario, 'warm-up', await load({ ...options, amount: COUNTED }));
  zeroInstructions(pid);
  const acquirerCpu = cpuMeter(gateway.acquirer.pid);
  const started = performance.now();
  const result = await load({ ...options, amount: COUNTED });
  const loaded = instructionsSinceZero(pid, outDir);
  const seconds = (performance.now() - started) / 1000;
  const acquirerSeconds = acquirerCpu();
  check(scenario, 'run', result);
  zeroInstructions(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const idle = instructionsSinceZero(pid, outDir);
  const total = result.requests.total;
  const millions = (n: number) => (n / total / 1e6).toFixed(2);
  console.log(
    `  instructions   ${millions(loaded - idle)} M per request (gateway, all threads; ${millions(loaded)} M less ${millions(idle)} M idle)`,
  );
  console.log(`  over           ${seconds.toFixed(0)} s for ${total} requests`);
  if (acquirerSeconds !== undefined) console.log(`  acquirer CPU   ${((acquirerSeconds * 1000) / total).toFixed(2)} ms per request`);
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
  if (ONLY !== undefined && !MODES.includes(ONLY)) throw new Error(`BENCH_ONLY must be one of ${MODES.join(', ')}, got "${ONLY}"`);
  const pgbench = ONLY === undefined || ONLY === 'charge' ? findPgbench() : undefined;
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run \`npm run bench\` at the repository root, which builds it first`);
  const databaseUrl = await createDatabase();
  // Given to the gateway, so that what the seed seals (provider credentials) opens there.
  const masterKeys = `bench:${newMasterKey()}`;
  const acquirer = await startChildAcquirer();
  cleanups.push(() => acquirer.stop());
  // The gateway's log lines go to a file, as they would in production, not to this terminal.
  const logFile = join(tmpdir(), `gateway-bench-${Date.now()}.log`);
  const log = openSync(logFile, 'a');
  cleanups.push(async () => closeSync(log));
  const callgrindDir = ONLY === 'instructions' ? mkdtempSync(join(tmpdir(), 'gateway-callgrind-')) : undefined;
  if (callgrindDir) cleanups.push(async () => rmSync(callgrindDir, { recursive: true, force: true }));
  const child = await startChildGateway({
    args: [
      ...(process.env.BENCH_PERF ? ['--perf-basic-prof'] : []),
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []),
      MAIN_JS,
    ],
    ...(callgrindDir && { wrapper: callgrindWrapper(callgrindDir), startTimeoutMs: 600_000 }),
    cwd: ROOT,
    databaseUrl,
    masterKeys,
    workers: WORKERS,
    env: { LOG_LEVEL, GATEWAY_SIMULATOR_URL: acquirer.url },
    stdio: ['ignore', log, log],
  });
  cleanups.push(() => child.stop());
  failureHints.push(() => `the gateway's last log lines (${logFile}):\n${lastLines(logFile, 10)}`);
  const gateway: Gateway = { ...child, acquirer: acquirer.child };
  // Under callgrind an answer can take seconds: the acquirer is given a minute, not 10 s.
  const target = await seedAccount(databaseUrl, masterKeys, callgrindDir ? { ...PROVIDER, timeoutMs: 60_000 } : PROVIDER);
  console.log(
    `gateway ${MAIN_JS} (pid ${child.child.pid}, GATEWAY_WORKERS=${WORKERS}, Node ${process.version}, LOG_LEVEL=${LOG_LEVEL}, log in ${logFile}) on database ${new URL(databaseUrl).pathname.slice(1)}`,
  );
  console.log(`simulated acquirer: pid ${acquirer.child.pid}, ${acquirer.url}`);
  if (callgrindDir) await countInstructions(chargeCard, gateway, target, callgrindDir);
  if (ONLY === undefined || ONLY === 'charge') {
    const chargesPerSecond = await measure(chargeCard, gateway, target);
    // The gateway is idle now: the database gets the whole machine, as it had the rest of it above.
    console.log(`\nPostgreSQL alone (bench/baseline.sql: a charge's 3 statements, pgbench -c 20 -j 2) for ${DURATION_S} s…`);
    const baseline = await measureBaseline({ pgbench: pgbench!, databaseUrl, ...target, seconds: DURATION_S, clients: 20, threads: 2 });
    console.log(`  transactions/s ${baseline.toFixed(1)}`);
    console.log(
      `\n${chargeCard.name}: ${chargesPerSecond.toFixed(1)} charges/s = ${((100 * chargesPerSecond) / baseline).toFixed(1)} % of ` +
        `what PostgreSQL alone does here (${baseline.toFixed(1)} transactions/s of the same shape)`,
    );
  }
  if (ONLY === 'soak') {
    const { path, ...request } = chargeCard.request(target);
    const options = { url: `${gateway.url}${path}`, ...request, connections: CONNECTIONS };
    check(chargeCard, 'soak', await soak(gateway, options, load, { rate: SOAK_RATE, seconds: SOAK_DURATION_S }));
  }
  if (ONLY === undefined || ONLY === 'batch') await measureBatch(gateway, target, BATCH_ROWS);
} catch (error) {
  console.error(`\n✗ benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  for (const hint of failureHints) console.error(hint());
  process.exitCode = 1;
} finally {
  await cleanUp();
}
