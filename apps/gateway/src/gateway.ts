import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { checkMasterKeys, createServices, systemClock, type Clock, type Limits, type ServiceConfig, type Services } from '@gateway/api';
import type { ExchangeRates, Keyring } from '@gateway/core';
import { openDatabase, type Database } from '@gateway/db';
import { createJobQueue, startWorker, type Worker } from '@gateway/jobs';
import { startSimulator, type Simulator } from '@gateway/providers';
import type { Logger } from 'pino';
import { ACCOUNT_SOCKET, serveAccountCommands } from './accounts-admin';
import { ensureDemoAccount, type DemoAccount } from './demo';
import { serveDrainable, type DrainableServer } from './http/drain';
import type { LoadedKeyring } from './master-keys';
import { createMetrics, createMetricsListener } from './http/metrics';
import { trustedProxies } from './http/client';
import { answerClientError, createRequestListener } from './http/server';

export interface GatewayOptions {
  port: number;
  host: string;
  databaseUrl?: string;
  /** Embedded database folder and home of demo-account.json. Absent: in-memory database, no demo. */
  dataDir?: string;
  publicUrl?: string;
  /** Where the dashboard (and the hosted payment pages) are served; default http://127.0.0.1:3001. */
  dashboardUrl?: string;
  simulatorUrl?: string;
  /** Where calls of a provider type go instead of the provider's own endpoints (GATEWAY_PROVIDER_ENDPOINTS). */
  providerEndpoints?: Readonly<Record<string, string>>;
  seedDemo: boolean;
  logger: Logger;
  clock?: Clock;
  /** Vault master keys (config.ts, master-keys.ts), or how to load them once the database answers. */
  keyring: Keyring | (() => LoadedKeyring);
  ccvRetentionSeconds: number;
  /** How long a modification may wait for its provider notification before staff see it (default 60). */
  notificationTimeoutMinutes?: number;
  /** How long a charge waits for its payer's 3-D Secure authentication (default 1800 s). */
  threeDsTimeoutSeconds?: number;
  /** Let webhook deliveries reach loopback and private addresses (default false: refused). */
  webhookAllowPrivate?: boolean;
  /** How long a webhook delivery waits for an answer (default 10 s). */
  webhookTimeoutMs?: number;
  /** Abuse limits (GATEWAY_RATE_LIMITS; default DEFAULT_LIMITS of @gateway/api). */
  limits?: Limits;
  /** Proxies whose X-Forwarded-For gives the client's address (GATEWAY_TRUSTED_PROXIES; default loopback). */
  trustedProxies?: string;
  /** Webhook deliveries in flight at once, apart from other jobs (default 16). */
  webhookConcurrency?: number;
  /** Active webhook subscriptions per account (default 100). */
  webhookSubscriptionsPerAccount?: number;
  /** How long finished idempotency keys and webhook events are kept (defaults in docs/operations.md). */
  retention?: ServiceConfig['retention'];
  /** Rates for estimating fees in other currencies (GATEWAY_EXCHANGE_RATES; default none). */
  exchangeRates?: ExchangeRates;
  /** Database connections this process may open (default 10). */
  databasePoolSize?: number;
  /** How long close() may take in all (default 25 s; see close()). */
  shutdownTimeoutMs?: number;
  /** Apply migrations and seed the demo account (default true); the workers of a cluster leave both to its primary. */
  startupWork?: boolean;
  /** Where GET /metrics is served (never on the API port); absent: nowhere. */
  metrics?: { port: number; host: string };
}

export interface Gateway {
  url: string;
  services: Services;
  database: Database;
  simulatorUrl: string;
  /** Where GET /metrics answers, when served. */
  metricsUrl: string | undefined;
  demo: DemoAccount | undefined;
  /** Runs background jobs (vault erasure); `runDue()` runs what is due now. */
  worker: Worker;
  /**
   * Stops gracefully: /health answers 503 at once and no new connection is accepted; every request
   * received is answered, each closing its connection, while the worker stops claiming and lets
   * its jobs finish; then the simulated acquirer and the database pool close, in that order. Requests
   * and jobs get the shutdown timeout less CLOSE_RESERVE_MS: connections still open then are cut,
   * jobs still running are handed back to other processes.
   */
  close(): Promise<void>;
}

/** Serialises start-up work (migrations, demo seeding) across gateway processes on one database. */
export const STARTUP_LOCK = 727_001;
const SHUTDOWN_TIMEOUT_MS = 25_000;
/** The dashboard's server, on this machine, forwards browsers' addresses. */
const DEFAULT_TRUSTED_PROXIES = 'loopback';
/** What close() keeps of the shutdown timeout for the acquirer and the database, after requests and jobs. */
const CLOSE_RESERVE_MS = 3_000;

const starting: RequestListener = (_req, res) => {
  res.statusCode = 503;
  res.setHeader('content-type', 'application/json');
  res.setHeader('retry-after', '1');
  res.end(JSON.stringify({ message: 'The gateway is starting', code: 37, isRetryable: true }));
};

/** Closes a server and every connection it has, whatever they are doing. */
const closeNow = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Listens on `port` (0: any free one) and `host`; the URL it answers at. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/**
 * Opens the database and, once it has answered, the master keys (a key generated now is written
 * only once the key check accepted it: see checkedStart).
 */
async function open(options: GatewayOptions, poolSize: number | undefined): Promise<{ database: Database; keys: LoadedKeyring }> {
  const { logger } = options;
  const database = await openDatabase({
    url: options.databaseUrl,
    dataDir: options.dataDir && join(options.dataDir, 'db'),
    poolSize,
    onIdleConnectionError: (err) => logger.warn({ err }, 'an idle database connection failed; the pool replaces it'),
  });
  try {
    await database.prisma.$queryRaw`SELECT 1`;
    const keys = typeof options.keyring === 'function' ? options.keyring() : { keyring: options.keyring, keep: () => undefined };
    return { database, keys };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function servicesOf(
  database: Database,
  keyring: Keyring,
  options: GatewayOptions,
  urls: { simulatorUrl: string; publicUrl: string },
): Services {
  const clock = options.clock ?? systemClock;
  return createServices({
    db: database.prisma,
    clock,
    logger: options.logger,
    config: {
      errorDocsUrl: `${urls.publicUrl}/errorcodes`,
      simulatorUrl: urls.simulatorUrl,
      providerEndpoints: options.providerEndpoints,
      keyring,
      ccvRetentionSeconds: options.ccvRetentionSeconds,
      notificationTimeoutMinutes: options.notificationTimeoutMinutes,
      threeDsTimeoutSeconds: options.threeDsTimeoutSeconds,
      publicUrl: urls.publicUrl,
      allowPrivateWebhooks: options.webhookAllowPrivate,
      webhookTimeoutMs: options.webhookTimeoutMs,
      limits: options.limits,
      webhookConcurrency: options.webhookConcurrency,
      webhookSubscriptionsPerAccount: options.webhookSubscriptionsPerAccount,
      retention: options.retention,
      exchangeRates: options.exchangeRates,
      dashboardUrl: options.dashboardUrl ?? 'http://127.0.0.1:3001',
    },
    jobs: createJobQueue({ db: database.prisma, clock }),
    notices: database,
    presence: database.presence(),
  });
}

/**
 * Migrations and the master keys' check (key-check.ts: a gateway with other keys stops here, having
 * changed nothing, not even written its key file), under a lock, so one process at a time does them.
 * Then a key generated by this start is written to its file.
 */
async function checkedStart(database: Database, keys: LoadedKeyring, options: GatewayOptions): Promise<void> {
  await database.exclusively(STARTUP_LOCK, async () => {
    const { applied } = await database.migrate();
    if (applied.length > 0) options.logger.info({ applied }, 'migrations applied');
    await checkMasterKeys(database.prisma, keys.keyring);
  });
  keys.keep();
}

/** The demo account on an empty database (under the start-up lock: one process makes it). */
function demoAccount(database: Database, services: Services, options: GatewayOptions): Promise<DemoAccount | undefined> {
  const { dataDir } = options;
  if (!options.seedDemo || !dataDir) return Promise.resolve(undefined);
  return database.exclusively(STARTUP_LOCK, () => ensureDemoAccount(services, dataDir));
}

/**
 * The start-up work alone, for the primary of several gateway processes (cluster.ts), which does it
 * once before its workers start: on three connections (the lock's, the migrations' and its own session), closed after.
 * `startSimulator` starts the acquirer once the key check passed and answers its URL.
 */
export async function prepareDatabase(options: GatewayOptions, startSimulator: () => Promise<string>): Promise<DemoAccount | undefined> {
  const { database, keys } = await open(options, 2);
  try {
    await checkedStart(database, keys, options);
    const urls = { simulatorUrl: await startSimulator(), publicUrl: options.publicUrl ?? '' };
    return await demoAccount(database, servicesOf(database, keys.keyring, options, urls), options);
  } finally {
    await database.close();
  }
}

/** Opens the database, applies migrations, starts the simulated acquirer and serves HTTP. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { logger } = options;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
  const drainMs = Math.max(shutdownTimeoutMs - CLOSE_RESERVE_MS, shutdownTimeoutMs / 2);
  let database: Database | undefined;
  let simulator: Simulator | undefined;
  let http: DrainableServer | undefined;
  let metricsServer: Server | undefined;
  let accountCommands: NetServer | undefined;
  let worker: Worker | undefined;
  const step = (what: string, closing: Promise<unknown> | undefined) =>
    closing?.catch((err: unknown) => logger.warn({ err }, `closing ${what} failed`));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const [answeredAll] = await Promise.all([step('HTTP', http?.drain(drainMs)), step('the job worker', worker?.stop())]);
      if (answeredAll === false) logger.warn({ seconds: drainMs / 1000 }, 'requests still unanswered at the shutdown timeout were cut');
      await step('metrics', metricsServer && closeNow(metricsServer));
      await step('the account socket', accountCommands && new Promise((resolve) => accountCommands?.close(resolve)));
      await step('the simulated acquirer', simulator?.close());
      await step('the database', database?.close());
    })());

  try {
    const opened = await open(options, options.databasePoolSize);
    database = opened.database;
    // A cluster's primary did the start-up work before it started its workers.
    if (options.startupWork !== false) await checkedStart(database, opened.keys, options);
    const clock = options.clock ?? systemClock;
    // The in-process acquirer keeps its stored cards and payments next to the embedded data, so
    // saved payment methods survive a restart.
    simulator = options.simulatorUrl
      ? undefined
      : await startSimulator({
          host: '127.0.0.1',
          port: 0,
          clock,
          stateFile: options.dataDir && join(options.dataDir, 'simulator-state.jsonl'),
        });
    const simulatorUrl = options.simulatorUrl ?? simulator?.url ?? '';

    let listener = starting;
    const server = createServer();
    http = serveDrainable(server, (req, res) => listener(req, res));
    const url = await listen(server, options.port, options.host);
    const metrics = createMetrics();
    let metricsUrl: string | undefined;
    if (options.metrics) {
      metricsServer = createServer(createMetricsListener(metrics));
      metricsUrl = `${await listen(metricsServer, options.metrics.port, options.metrics.host)}/metrics`;
    }
    const publicUrl = options.publicUrl ?? url;

    const services = servicesOf(database, opened.keys.keyring, options, { simulatorUrl, publicUrl });
    const demo = options.startupWork === false ? undefined : await demoAccount(database, services, options);
    worker = startWorker({
      db: database.prisma,
      clock,
      logger,
      handlers: services.jobHandlers,
      lanes: services.jobLanes,
      caps: services.jobCaps,
      stopTimeoutMs: drainMs,
    });
    await services.maintenance.start();
    // The embedded database is this process's alone: operators' account commands come through it.
    if (database.kind === 'embedded' && options.dataDir) {
      accountCommands = await serveAccountCommands(join(options.dataDir, ACCOUNT_SOCKET), services.accounts);
    }

    const db = database.prisma;
    server.on('clientError', answerClientError(services.config.errorDocsUrl));
    listener = createRequestListener({
      services,
      logger,
      metrics,
      publicUrl,
      simulatorUrl,
      trustedProxies: trustedProxies(options.trustedProxies ?? DEFAULT_TRUSTED_PROXIES),
      // Draining: 503 at once, so that load balancers send nothing more here.
      health: async () => {
        if (http?.draining) return false;
        await db.$queryRaw`SELECT 1`;
        return true;
      },
    });
    return { url, services, database, simulatorUrl, metricsUrl, demo, worker, close };
  } catch (error) {
    await close();
    throw error;
  }
}
