import type { Clock, ExchangeRates, Keyring, Logger } from '@gateway/core';
import type { Db, Presence } from '@gateway/db';
import type { JobQueue } from '@gateway/jobs';
import type { Limits } from './limits';
import type { ChangeNotices } from './providers/provider-cache';

export type { Clock, Logger };
export { systemClock } from '@gateway/core';

export interface ServiceConfig {
  /** Base of the `type` link in error bodies. */
  errorDocsUrl: string;
  /** The gateway's own public address (GATEWAY_PUBLIC_URL): its 3-D Secure URLs, which payers' browsers open. */
  publicUrl: string;
  /** How long a charge waits for its payer's 3-D Secure authentication (GATEWAY_THREEDS_TIMEOUT_SECONDS; default 1800). */
  threeDsTimeoutSeconds?: number;
  /** Base URL of the simulated acquirer that `dummy` providers talk to. */
  simulatorUrl: string;
  /**
   * The operator's endpoints per provider type (GATEWAY_PROVIDER_ENDPOINTS: a proxy, a test server),
   * in place of the provider's own; absent: the provider's own for the environment.
   */
  providerEndpoints?: Readonly<Record<string, string>>;
  /** Master keys that wrap the data keys of sealed values (vault, provider credentials). */
  keyring: Keyring;
  /** How long a vaulted CCV is kept when no payment uses it. */
  ccvRetentionSeconds: number;
  /** Base URL of the dashboard, which hosts the payment pages (payment link URLs, session cookies). */
  dashboardUrl: string;
  /** Let webhooks reach loopback and private addresses (GATEWAY_WEBHOOK_ALLOW_PRIVATE); refused by default. */
  allowPrivateWebhooks?: boolean;
  /** How long a webhook delivery waits for the receiver's answer (default 10 s). */
  webhookTimeoutMs?: number;
  /** Abuse limits: public-key calls and declines, failed sign-ins (GATEWAY_RATE_LIMITS; default DEFAULT_LIMITS). */
  limits?: Limits;
  /** Webhook deliveries in flight at once in this process, apart from other jobs (default 16). */
  webhookConcurrency?: number;
  /** Active webhook subscriptions an account may have (default 100). */
  webhookSubscriptionsPerAccount?: number;
  /** How long finished idempotency keys and webhook events (with their delivery logs) are kept (docs/operations.md). */
  retention?: { idempotencyKeysMs?: number; webhookEventsMs?: number };
  /** Rates that carry a provider's fixed fees into other currencies (GATEWAY_EXCHANGE_RATES; default none). */
  exchangeRates?: ExchangeRates;
  /** How long a capture, void or refund may wait for its provider notification before staff see it listed (default 60). */
  notificationTimeoutMinutes?: number;
}

export interface Dependencies {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: ServiceConfig;
  /** Background jobs that survive restarts (packages/jobs). */
  jobs: JobQueue;
  /**
   * The database's change notifications (LISTEN), when the services may keep what they read in
   * memory (providers and their fees); without them every read goes to the database.
   */
  notices?: ChangeNotices;
  /**
   * This process's presence on the database, and whether another's process is alive (packages/db
   * presence.ts): a repeat of a request whose process died takes its Idempotency-Key over at once.
   */
  presence?: Presence;
}
