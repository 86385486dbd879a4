import type { Db } from '@gateway/db';

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
}

export interface Dependencies {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: ServiceConfig;
}
