import type { Keyring } from '@gateway/core';
import type { Db } from '@gateway/db';
import type { JobQueue } from '@gateway/jobs';

/** Structured logger (pino-compatible). Never pass card data to it. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface ServiceConfig {
  /** Base of the `type` link in error bodies. */
  errorDocsUrl: string;
  /** Base URL of the simulated acquirer that `dummy` providers talk to. */
  simulatorUrl: string;
  /** Master keys that wrap the data keys of sealed values (vault, provider credentials). */
  keyring: Keyring;
  /** How long a vaulted CCV is kept when no payment uses it. */
  ccvRetentionSeconds: number;
}

export interface Dependencies {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: ServiceConfig;
  /** Background jobs that survive restarts (packages/jobs). */
  jobs: JobQueue;
}
