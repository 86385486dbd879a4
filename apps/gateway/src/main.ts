import { join } from 'node:path';
import { readConfig } from './config';
import { demoBanner } from './demo';
import { startGateway } from './gateway';
import { createLogger } from './logger';
import { loadKeyring } from './master-keys';

const config = readConfig();
const logger = createLogger(config.logLevel);

const gateway = await startGateway({
  port: config.port,
  host: config.host,
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  publicUrl: config.publicUrl,
  dashboardUrl: config.dashboardUrl,
  simulatorUrl: config.simulatorUrl,
  seedDemo: config.seedDemo,
  logger,
  keyring: loadKeyring(config, logger),
  ccvRetentionSeconds: config.ccvRetentionSeconds,
  webhookAllowPrivate: config.webhookAllowPrivate,
  exchangeRates: config.exchangeRates,
  metrics: config.metrics,
}).catch((error: unknown) => {
  logger.fatal({ err: error }, 'the gateway could not start');
  process.exit(1);
});

logger.info({ url: gateway.url, metrics: gateway.metricsUrl, database: gateway.database.kind }, 'gateway started');
if (gateway.demo)
  process.stdout.write(demoBanner(gateway.demo, config.publicUrl, config.dashboardUrl, join(config.dataDir, 'demo-account.json')));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    void gateway.close().then(() => process.exit(0));
  });
}
