import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServices, systemClock, type Clock, type Services } from '@gateway/api';
import type { ExchangeRates, Keyring } from '@gateway/core';
import { openDatabase, type Database } from '@gateway/db';
import { createJobQueue, startWorker, type Worker } from '@gateway/jobs';
import { startSimulator } from '@gateway/providers';
import type { Logger } from 'pino';
import { ensureDemoAccount, type DemoAccount } from './demo';
import { createMetrics, createMetricsListener } from './http/metrics';
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
  seedDemo: boolean;
  logger: Logger;
  clock?: Clock;
  /** Vault master keys (config.ts, master-keys.ts). */
  keyring: Keyring;
  ccvRetentionSeconds: number;
  /** Let webhook deliveries reach loopback and private addresses (default false: refused). */
  webhookAllowPrivate?: boolean;
  /** How long a webhook delivery waits for an answer (default 10 s). */
  webhookTimeoutMs?: number;
  /** Dashboard sign-ins: password checks per minute, all emails together (default 30). */
  passwordChecksPerMinute?: number;
  /** Rates for estimating fees in other currencies (GATEWAY_EXCHANGE_RATES; default none). */
  exchangeRates?: ExchangeRates;
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
  close(): Promise<void>;
}

/** Serialises start-up work (migrations, demo seeding) across gateway processes on one database. */
const STARTUP_LOCK = 727_001;

const starting: RequestListener = (_req, res) => {
  res.statusCode = 503;
  res.setHeader('content-type', 'application/json');
  res.setHeader('retry-after', '1');
  res.end(JSON.stringify({ message: 'The gateway is starting', code: 37, isRetryable: true }));
};

/** Serves HTTP on `port` (0: any free one) and `host`; the URL it answers at. */
async function listen(listener: RequestListener, port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}` };
}

/** Opens the database, applies migrations, starts the simulated acquirer and serves HTTP. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { logger } = options;
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch((err: unknown) => logger.warn({ err }, 'close failed'));
  };
  try {
    const database = await openDatabase({
      url: options.databaseUrl,
      dataDir: options.dataDir && join(options.dataDir, 'db'),
      onIdleConnectionError: (err) => logger.warn({ err }, 'an idle database connection failed; the pool replaces it'),
    });
    closers.push(() => database.close());

    const clock = options.clock ?? systemClock;
    // The in-process acquirer keeps its stored cards and payments next to the embedded data, so
    // saved payment methods survive a restart.
    const simulator = options.simulatorUrl
      ? undefined
      : await startSimulator({
          host: '127.0.0.1',
          port: 0,
          clock,
          stateFile: options.dataDir && join(options.dataDir, 'simulator-state.jsonl'),
        });
    if (simulator) closers.push(() => simulator.close());
    const simulatorUrl = options.simulatorUrl ?? simulator?.url ?? '';

    let listener = starting;
    const { server, url } = await listen((req, res) => listener(req, res), options.port, options.host);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    server.closeIdleConnections?.();
    const metrics = createMetrics();
    const metricsServer = options.metrics && (await listen(createMetricsListener(metrics), options.metrics.port, options.metrics.host));
    if (metricsServer) closers.push(() => new Promise((resolve) => metricsServer.server.close(() => resolve())));
    const publicUrl = options.publicUrl ?? url;

    const { keyring, ccvRetentionSeconds } = options;
    const services = createServices({
      db: database.prisma,
      clock,
      logger,
      config: {
        errorDocsUrl: `${publicUrl}/errorcodes`,
        simulatorUrl,
        keyring,
        ccvRetentionSeconds,
        allowPrivateWebhooks: options.webhookAllowPrivate,
        webhookTimeoutMs: options.webhookTimeoutMs,
        passwordChecksPerMinute: options.passwordChecksPerMinute,
        exchangeRates: options.exchangeRates,
        dashboardUrl: options.dashboardUrl ?? 'http://127.0.0.1:3001',
      },
      jobs: createJobQueue({ db: database.prisma, clock }),
      notices: database,
    });

    const demo = await database.exclusively(STARTUP_LOCK, async () => {
      const { applied } = await database.migrate();
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
      return options.seedDemo && options.dataDir ? ensureDemoAccount(services, options.dataDir) : undefined;
    });
    const worker = startWorker({ db: database.prisma, clock, logger, handlers: services.jobHandlers });
    closers.push(() => worker.stop());
    await services.maintenance.start();

    server.on('clientError', answerClientError(services.config.errorDocsUrl));
    listener = createRequestListener({
      services,
      logger,
      metrics,
      publicUrl,
      health: async () => {
        await database.prisma.$queryRaw`SELECT 1`;
        return true;
      },
    });
    return { url, services, database, simulatorUrl, metricsUrl: metricsServer && `${metricsServer.url}/metrics`, demo, worker, close };
  } catch (error) {
    await close();
    throw error;
  }
}
