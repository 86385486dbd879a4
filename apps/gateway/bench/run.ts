// Benchmarks the built gateway (apps/gateway/dist/main.js) as it is deployed: a child process of
// its own on a fresh PostgreSQL database, with one account and one zero-latency simulated provider,
// loaded by autocannon from this process. See docs/benchmarks.md.
//
//   npm run bench                                   build, then run every scenario
//   BENCH_DURATION=30 BENCH_CONNECTIONS=50 npm run bench
//   DATABASE_URL=postgresql://…/postgres npm run bench   PostgreSQL server to create the database on
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServices, systemClock, type NewProvider } from '@gateway/api';
import { newMasterKey, parseKeyring } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { createJobQueue } from '@gateway/jobs';
import autocannon from 'autocannon';
import pg from 'pg';
import { chargeCard } from './charge-card';

/** What a scenario needs to build its requests. */
export interface Target {
  secretKey: string;
  providerId: string;
}

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function stop(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(kill);
}

interface Gateway {
  url: string;
  child: ChildProcess;
}

/** Starts dist/main.js on the database and waits until /health answers 200 (migrations applied). */
async function startGateway(databaseUrl: string): Promise<Gateway> {
  const port = await freePort();
  // GATEWAY_* settings of the caller's shell are left out: the run must not depend on them.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, GATEWAY_SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => stop(child));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (hasExited(child)) throw new Error(`the gateway exited during start-up (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    const status = await fetch(`${url}/health`).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) return { url, child };
    if (Date.now() > deadline) throw new Error(`the gateway did not become healthy within 60 s (last /health status: ${status})`);
    await sleep(100);
  }
}

/** The account and provider, made through the services: the API cannot create providers yet. */
async function seed(databaseUrl: string): Promise<Target> {
  const database = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    // Only the account and provider services are used: they read neither config nor jobs.
    const services = createServices({
      db: database.prisma,
      clock: systemClock,
      logger: console,
      config: {
        errorDocsUrl: '',
        simulatorUrl: '',
        keyring: parseKeyring(`bench:${newMasterKey()}`),
        ccvRetentionSeconds: 300,
        dashboardUrl: '',
      },
      jobs: createJobQueue({ db: database.prisma, clock: systemClock }),
    });
    const { account, secretKey } = await services.accounts.create('Benchmark');
    const provider = await services.providers.create(account, PROVIDER);
    return { secretKey, providerId: provider.id };
  } finally {
    await database.close();
  }
}

/** User + system CPU seconds a process has used (Linux /proc); undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) " come the fields from 3 on; utime and stime are 14 and 15, in 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
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
  const cores = (seconds: number | undefined) => (seconds === undefined ? 'n/a' : `${(seconds / result.duration).toFixed(2)} cores`);
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
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run \`npm run bench\` at the repository root, which builds it first`);
  const databaseUrl = await createDatabase();
  const gateway = await startGateway(databaseUrl);
  const target = await seed(databaseUrl);
  console.log(
    `gateway ${MAIN_JS} (pid ${gateway.child.pid}, Node ${process.version}) on database ${new URL(databaseUrl).pathname.slice(1)}`,
  );
  for (const scenario of SCENARIOS) await measure(scenario, gateway, target);
} catch (error) {
  console.error(`\n✗ benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
