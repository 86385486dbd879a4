// A gateway in a child process of its own, on a PostgreSQL database, as it is deployed: for the
// benchmarks (run.ts, with `workers` for GATEWAY_WORKERS) and for the tests that kill, stop or run
// several of them (test/batch-crash, shutdown and several-processes tests).
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServices, systemClock, type NewProvider } from '@gateway/api';
import { parseKeyring } from '@gateway/core';
import { openDatabase, type Db } from '@gateway/db';
import { createJobQueue } from '@gateway/jobs';

export interface ChildGateway {
  url: string;
  /** GET /metrics on the gateway's own metrics listener (a free port of its own). */
  metricsUrl: string;
  child: ChildProcess;
  /** SIGTERM (a clean stop), then SIGKILL after 5 s. */
  stop(): Promise<void>;
  /** SIGKILL at once: the process dies wherever it is, as in a crash. */
  kill(): Promise<void>;
}

export interface ChildGatewayOptions {
  /** Arguments to node: the built bundle, or `--import tsx src/main.ts`. */
  args: string[];
  /** Working directory (tsx resolves from it). */
  cwd: string;
  databaseUrl: string;
  /** GATEWAY_MASTER_KEYS: the same keyring as the process that seeds the database. */
  masterKeys: string;
  /** Other variables, e.g. GATEWAY_SIMULATOR_URL, LOG_LEVEL (default warn). */
  env?: Record<string, string>;
  /** GATEWAY_WORKERS: gateway processes sharing the port (default 1: the child serves alone). */
  workers?: number;
  /** How long start-up may take before the child is killed (default 60 s). */
  startTimeoutMs?: number;
  stdio?: StdioOptions;
  /** A program that runs node, with its arguments (e.g. valgrind): the gateway is `[...wrapper, node, ...args]`. */
  wrapper?: string[];
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

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

async function end(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(kill);
}

/** Starts the gateway and waits until /health answers 200 (migrations applied, worker running). */
export async function startChildGateway(options: ChildGatewayOptions): Promise<ChildGateway> {
  const port = await freePort();
  const metricsPort = await freePort();
  // GATEWAY_* settings of the caller's shell are left out: the run must not depend on them.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  const [program, ...wrapperArgs] = [...(options.wrapper ?? []), process.execPath];
  const child = spawn(program!, [...wrapperArgs, ...options.args], {
    cwd: options.cwd,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      GATEWAY_SEED_DEMO: 'false',
      GATEWAY_MASTER_KEYS: options.masterKeys,
      LOG_LEVEL: 'warn',
      GATEWAY_WORKERS: String(options.workers ?? 1),
      // Several gateways may run on this machine at once: each its own metrics port.
      GATEWAY_METRICS_PORT: String(metricsPort),
      ...options.env,
    },
    stdio: options.stdio ?? ['ignore', 'inherit', 'inherit'],
  });
  const gateway: ChildGateway = {
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    child,
    stop: () => end(child, 'SIGTERM'),
    kill: () => end(child, 'SIGKILL'),
  };
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (hasExited(child)) throw new Error(`the gateway exited during start-up (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    const status = await fetch(`${gateway.url}/health`).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) return gateway;
    if (Date.now() > deadline) {
      await gateway.kill();
      throw new Error(`the gateway did not become healthy within ${startTimeoutMs / 1000} s (last /health status: ${status})`);
    }
    await sleep(100);
  }
}

/**
 * The services on a database, outside a gateway: for seeding and for what reads no other config
 * (accounts, providers, searches) and runs no jobs.
 */
export function servicesOn(db: Db, masterKeys: string) {
  return createServices({
    db,
    clock: systemClock,
    logger: console,
    config: {
      errorDocsUrl: '',
      publicUrl: '',
      simulatorUrl: '',
      keyring: parseKeyring(masterKeys),
      ccvRetentionSeconds: 300,
      dashboardUrl: '',
    },
    jobs: createJobQueue({ db, clock: systemClock }),
  });
}

/**
 * An account and one provider, made through the services on the gateway's database (the API
 * cannot create accounts), sealed with the gateway's keyring.
 */
export async function seedAccount(databaseUrl: string, masterKeys: string, provider: NewProvider) {
  const database = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    const services = servicesOn(database.prisma, masterKeys);
    const { account, secretKey } = await services.accounts.create('Seeded');
    const { id: providerId } = await services.providers.create(account, provider);
    return { accountId: account.id, secretKey, providerId };
  } finally {
    await database.close();
  }
}
