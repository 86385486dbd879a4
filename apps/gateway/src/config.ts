import { resolve } from 'node:path';
import { parseLimits, type Limits } from '@gateway/api';
import { parseExchangeRates, parseKeyring, type ExchangeRates, type Keyring } from '@gateway/core';
import { PROVIDER_TYPES } from '@gateway/providers';

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
  /** Base URL of the dashboard, which hosts the payment pages (GATEWAY_DASHBOARD_URL). */
  dashboardUrl: string;
  /** External simulated acquirer; absent = one started inside the gateway process. */
  simulatorUrl: string | undefined;
  /** Where calls of a provider type go instead of the provider's own endpoints (GATEWAY_PROVIDER_ENDPOINTS; docs/operations.md). */
  providerEndpoints: Readonly<Record<string, string>>;
  /** Create the demo account on an empty database. */
  seedDemo: boolean;
  /** Vault master keys, current first (GATEWAY_MASTER_KEYS); absent = a key kept in `dataDir`. */
  masterKeys: Keyring | undefined;
  /** How long a vaulted CCV is kept when no payment uses it (docs/vault.md). */
  ccvRetentionSeconds: number;
  /** How long a capture, void or refund may wait for its provider notification before staff see it listed (GATEWAY_NOTIFICATION_TIMEOUT_MINUTES). */
  notificationTimeoutMinutes: number;
  /** How long a charge waits for its payer's 3-D Secure authentication (GATEWAY_THREEDS_TIMEOUT_SECONDS, at least 10). */
  threeDsTimeoutSeconds: number;
  /** Let webhooks reach loopback and private addresses (GATEWAY_WEBHOOK_ALLOW_PRIVATE=true; docs/webhooks.md). */
  webhookAllowPrivate: boolean;
  /** Rates for estimating fees in other currencies (GATEWAY_EXCHANGE_RATES=USD:AUD=1.5234,…; docs/operations.md). */
  exchangeRates: ExchangeRates;
  /** Where GET /metrics is served: its own port, on this machine only by default (docs/operations.md). */
  metrics: { port: number; host: string };
  /** Gateway processes sharing the port (GATEWAY_WORKERS; more than one needs PostgreSQL). */
  workers: number;
  /** Database connections each process may open: GATEWAY_DB_POOL_SIZE, the host's budget, shared among the workers. */
  databasePoolSize: number;
  /** How long a stop may take, from the signal to the exit (GATEWAY_SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutSeconds: number;
  /** Abuse limits over their defaults (GATEWAY_RATE_LIMITS=name=points/seconds,…; docs/operations.md). */
  limits: Limits;
  /** Proxies whose X-Forwarded-For is believed (GATEWAY_TRUSTED_PROXIES; default loopback). */
  trustedProxies: string;
  /** Webhook deliveries and what is kept of them, and of idempotency keys (GATEWAY_WEBHOOK_*, GATEWAY_*_RETENTION_*; docs/operations.md). */
  background: {
    webhookTimeoutMs: number;
    webhookConcurrency: number;
    webhookSubscriptionsPerAccount: number;
    retention: { idempotencyKeysMs: number; webhookEventsMs: number };
  };
}

/** A CCV may be kept only briefly before a payment: at most an hour, 5 minutes by default. */
const CCV_RETENTION = { default: 300, max: 3600 };
/** Database connections of all the gateway's processes on a host, together. */
const DB_POOL_SIZE = 10;
/** Every process keeps one connection of its own that LISTENs for provider changes (provider-cache.ts). */
const LISTEN_CONNECTIONS = 1;
/** Every process needs two pool connections (start-up holds one for its lock while migrations use another) and its listener. */
const MIN_POOL_PER_PROCESS = 2 + LISTEN_CONNECTIONS;
/** Below Kubernetes' default 30-second grace period, so the gateway exits before it is killed. */
const SHUTDOWN_TIMEOUT_SECONDS = 25;

function integer(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${value}"`);
  return n;
}

function masterKeys(text: string): Keyring {
  try {
    return parseKeyring(text);
  } catch (error) {
    throw new Error(`GATEWAY_MASTER_KEYS: ${(error as Error).message}`);
  }
}

function exchangeRates(text: string): ExchangeRates {
  try {
    return parseExchangeRates(text);
  } catch (error) {
    throw new Error(`GATEWAY_EXCHANGE_RATES: ${(error as Error).message}`);
  }
}

function limits(text: string): Limits {
  try {
    return parseLimits(text);
  } catch (error) {
    throw new Error(`GATEWAY_RATE_LIMITS: ${(error as Error).message}`);
  }
}

/**
 * GATEWAY_PROVIDER_ENDPOINTS, `type=url,…` (e.g. `stripe=http://127.0.0.1:12111`): per provider
 * type, a base URL its calls go to instead of the provider's own (a proxy, a local test server).
 * Each type once, one the gateway has (not dummy: GATEWAY_SIMULATOR_URL is its), each URL http(s)
 * with no user, query or fragment, and an origin alone for a type whose own endpoint is one.
 */
export function parseProviderEndpoints(text: string): Record<string, string> {
  const endpoints: Record<string, string> = {};
  const types = [...PROVIDER_TYPES.keys()].filter((type) => type !== 'dummy');
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    const type = entry.slice(0, at).trim().toLowerCase();
    const value = entry.slice(at + 1).trim();
    const problem = (why: string) => new Error(`GATEWAY_PROVIDER_ENDPOINTS: "${entry}" ${why}`);
    if (at < 1) throw problem('is not type=url');
    if (!types.includes(type)) throw problem(`names no provider type (one of ${types.join(', ')})`);
    if (endpoints[type]) throw problem(`names ${type} a second time`);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw problem('has no valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw problem('must be an http or https URL');
    if (url.username || url.password || url.search || url.hash) throw problem('must have no user, password, query or fragment');
    // A type whose own endpoint is an origin (stripe: its library takes no path prefix) takes only an origin.
    const own = new URL(PROVIDER_TYPES.get(type)!.endpoint('SANDBOX', {}));
    if (own.pathname === '/' && url.pathname !== '/') throw problem(`must be an origin (scheme, host, port): ${type} takes no path`);
    endpoints[type] = url.toString().replace(/\/+$/, '');
  }
  return endpoints;
}

function ccvRetention(value: string | undefined): number {
  const seconds = integer('GATEWAY_CCV_RETENTION_SECONDS', value, CCV_RETENTION.default);
  if (seconds < 1 || seconds > CCV_RETENTION.max) {
    throw new Error(`GATEWAY_CCV_RETENTION_SECONDS must be between 1 and ${CCV_RETENTION.max}, got ${seconds}`);
  }
  return seconds;
}

function workersOf(env: NodeJS.ProcessEnv): number {
  const workers = integer('GATEWAY_WORKERS', env.GATEWAY_WORKERS, 1, 1);
  if (workers > 1 && !env.DATABASE_URL) {
    throw new Error(
      `GATEWAY_WORKERS=${workers} needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process. ` +
        'Set DATABASE_URL, or run one process (GATEWAY_WORKERS=1).',
    );
  }
  return workers;
}

/** The pool of each of the `workers` processes: its share of GATEWAY_DB_POOL_SIZE, less its listening connection. */
function poolSizePerProcess(env: NodeJS.ProcessEnv, workers: number): number {
  const total = integer('GATEWAY_DB_POOL_SIZE', env.GATEWAY_DB_POOL_SIZE, DB_POOL_SIZE, MIN_POOL_PER_PROCESS);
  const each = Math.floor(total / workers);
  if (each < MIN_POOL_PER_PROCESS) {
    throw new Error(
      `GATEWAY_DB_POOL_SIZE=${total} leaves ${each} connection(s) to each of the ${workers} processes of GATEWAY_WORKERS; ` +
        `each needs at least ${MIN_POOL_PER_PROCESS}: raise GATEWAY_DB_POOL_SIZE to ${MIN_POOL_PER_PROCESS * workers} or more.`,
    );
  }
  return each - LISTEN_CONNECTIONS;
}

const HOUR_MS = 60 * 60_000;

function background(env: NodeJS.ProcessEnv): GatewayConfig['background'] {
  const timeoutSeconds = integer('GATEWAY_WEBHOOK_TIMEOUT_SECONDS', env.GATEWAY_WEBHOOK_TIMEOUT_SECONDS, 10, 1);
  if (timeoutSeconds > 60) throw new Error(`GATEWAY_WEBHOOK_TIMEOUT_SECONDS must be between 1 and 60, got ${timeoutSeconds}`);
  return {
    webhookTimeoutMs: timeoutSeconds * 1000,
    webhookConcurrency: integer('GATEWAY_WEBHOOK_CONCURRENCY', env.GATEWAY_WEBHOOK_CONCURRENCY, 16, 1),
    webhookSubscriptionsPerAccount: integer(
      'GATEWAY_WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT',
      env.GATEWAY_WEBHOOK_SUBSCRIPTIONS_PER_ACCOUNT,
      100,
      1,
    ),
    retention: {
      idempotencyKeysMs: integer('GATEWAY_IDEMPOTENCY_RETENTION_HOURS', env.GATEWAY_IDEMPOTENCY_RETENTION_HOURS, 24, 1) * HOUR_MS,
      webhookEventsMs: integer('GATEWAY_WEBHOOK_RETENTION_DAYS', env.GATEWAY_WEBHOOK_RETENTION_DAYS, 30, 1) * 24 * HOUR_MS,
    },
  };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = integer('PORT', env.PORT, 3000);
  const host = env.HOST || '127.0.0.1';
  const workers = workersOf(env);
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.GATEWAY_DATA_DIR || '.data'),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: (env.GATEWAY_PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    dashboardUrl: (env.GATEWAY_DASHBOARD_URL || `http://127.0.0.1:${integer('DASHBOARD_PORT', env.DASHBOARD_PORT, 3001)}`).replace(
      /\/+$/,
      '',
    ),
    simulatorUrl: env.GATEWAY_SIMULATOR_URL || undefined,
    providerEndpoints: parseProviderEndpoints(env.GATEWAY_PROVIDER_ENDPOINTS ?? ''),
    seedDemo: env.GATEWAY_SEED_DEMO !== 'false',
    masterKeys: env.GATEWAY_MASTER_KEYS ? masterKeys(env.GATEWAY_MASTER_KEYS) : undefined,
    ccvRetentionSeconds: ccvRetention(env.GATEWAY_CCV_RETENTION_SECONDS),
    notificationTimeoutMinutes: integer('GATEWAY_NOTIFICATION_TIMEOUT_MINUTES', env.GATEWAY_NOTIFICATION_TIMEOUT_MINUTES, 60, 1),
    threeDsTimeoutSeconds: integer('GATEWAY_THREEDS_TIMEOUT_SECONDS', env.GATEWAY_THREEDS_TIMEOUT_SECONDS, 1800, 10),
    webhookAllowPrivate: env.GATEWAY_WEBHOOK_ALLOW_PRIVATE === 'true',
    exchangeRates: exchangeRates(env.GATEWAY_EXCHANGE_RATES ?? ''),
    metrics: { port: integer('GATEWAY_METRICS_PORT', env.GATEWAY_METRICS_PORT, 9464), host: env.GATEWAY_METRICS_HOST || '127.0.0.1' },
    workers,
    databasePoolSize: poolSizePerProcess(env, workers),
    shutdownTimeoutSeconds: integer('GATEWAY_SHUTDOWN_TIMEOUT_SECONDS', env.GATEWAY_SHUTDOWN_TIMEOUT_SECONDS, SHUTDOWN_TIMEOUT_SECONDS, 1),
    limits: limits(env.GATEWAY_RATE_LIMITS ?? ''),
    trustedProxies: env.GATEWAY_TRUSTED_PROXIES || 'loopback',
    background: background(env),
  };
}
