import cluster from 'node:cluster';
import { join } from 'node:path';
import { runPrimary } from './cluster';
import { readConfig } from './config';
import { demoBanner } from './demo';
import { startGateway, type GatewayOptions } from './gateway';
import { createLogger } from './logger';
import { loadKeyring } from './master-keys';
import { READY_MESSAGE, stopOnSignals, stopWithPrimary } from './stop';

const config = (() => {
  try {
    return readConfig();
  } catch (error) {
    // Before there is a logger: the message alone says what to fix.
    process.stderr.write(`The gateway cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
})();
// The workers of a cluster sign their lines, which interleave in one output.
const logger = cluster.isWorker ? createLogger(config.logLevel).child({ worker: cluster.worker?.id }) : createLogger(config.logLevel);
const shutdownTimeoutMs = config.shutdownTimeoutSeconds * 1000;

const options: GatewayOptions = {
  port: config.port,
  host: config.host,
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  publicUrl: config.publicUrl,
  dashboardUrl: config.dashboardUrl,
  simulatorUrl: config.simulatorUrl,
  providerEndpoints: config.providerEndpoints,
  seedDemo: config.seedDemo,
  logger,
  // Loaded once the database answers: a first start makes no key file for a database it cannot reach.
  keyring: () => loadKeyring(config, logger),
  ccvRetentionSeconds: config.ccvRetentionSeconds,
  notificationTimeoutMinutes: config.notificationTimeoutMinutes,
  threeDsTimeoutSeconds: config.threeDsTimeoutSeconds,
  webhookAllowPrivate: config.webhookAllowPrivate,
  ...config.background,
  exchangeRates: config.exchangeRates,
  metrics: config.metrics,
  databasePoolSize: config.databasePoolSize,
  shutdownTimeoutMs,
  limits: config.limits,
  trustedProxies: config.trustedProxies,
  // A cluster's primary did the start-up work before it started its workers.
  startupWork: !cluster.isWorker,
};
const banner = (demo: Parameters<typeof demoBanner>[0]) =>
  process.stdout.write(demoBanner(demo, config.publicUrl, config.dashboardUrl, join(config.dataDir, 'demo-account.json')));

const fatal = (error: unknown): never => {
  logger.fatal({ err: error }, 'the gateway could not start');
  // The reason in plain words too, where an operator looks first.
  process.stderr.write(`The gateway cannot start: ${(error as Error).message}\n`);
  process.exit(1);
};

if (config.workers > 1 && cluster.isPrimary) {
  await runPrimary({ workers: config.workers, shutdownTimeoutMs, options, banner }).catch(fatal);
} else {
  const gateway = await startGateway(options).catch(fatal);
  if (cluster.isWorker) {
    stopWithPrimary(logger, shutdownTimeoutMs, () => gateway.close());
    process.send?.({ type: READY_MESSAGE, url: gateway.url });
  } else {
    stopOnSignals(logger, shutdownTimeoutMs, () => gateway.close());
    logger.info({ url: gateway.url, metrics: gateway.metricsUrl, database: gateway.database.kind }, 'gateway started');
    if (gateway.demo) banner(gateway.demo);
  }
}
