import { resolve } from 'node:path';

/** The gateway's configuration: the only module that reads process.env. */
export interface GatewayConfig {
  port: number;
  host: string;
  /** postgresql://… ; absent = embedded database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  /** Base URL clients use to reach the gateway (links in error bodies, payment links). */
  publicUrl: string;
  /** External simulated acquirer; absent = one started inside the gateway process. */
  simulatorUrl: string | undefined;
  /** Create the demo account on an empty database. */
  seedDemo: boolean;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = integer('PORT', env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.GATEWAY_DATA_DIR || '.data'),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: (env.GATEWAY_PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    simulatorUrl: env.GATEWAY_SIMULATOR_URL || undefined,
    seedDemo: env.GATEWAY_SEED_DEMO !== 'false',
  };
}
