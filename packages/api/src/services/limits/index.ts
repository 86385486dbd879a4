import { ApiError } from '@gateway/core';
import type { Db } from '@gateway/db';
import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible';

/** So many points (calls, declines, failures) in a window of so many seconds. */
export interface Limit {
  points: number;
  seconds: number;
}

/** The abuse limits and their defaults (GATEWAY_RATE_LIMITS overrides any of them; docs/operations.md). */
export const DEFAULT_LIMITS = {
  /** Calls made with one account's public key (token creation, wallet charges, payment-link payments). */
  'public-key-calls': { points: 1000, seconds: 60 },
  /** Such calls from one client address, whatever the key. */
  'public-address-calls': { points: 100, seconds: 60 },
  /** Declines answered to calls with one account's public key. */
  'public-key-declines': { points: 100, seconds: 3600 },
  /** Declines answered to public-key calls from one client address. */
  'public-address-declines': { points: 10, seconds: 3600 },
  /** Declines of one card (its fingerprint) on public-key calls. */
  'public-card-declines': { points: 5, seconds: 3600 },
  /** Failed dashboard sign-ins from one client address. */
  'sign-in-address-failures': { points: 50, seconds: 3600 },
  /** Failed dashboard sign-ins of one email from one client address. */
  'sign-in-pair-failures': { points: 5, seconds: 900 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof DEFAULT_LIMITS;
export type Limits = Record<LimitName, Limit>;

const isLimitName = (name: string): name is LimitName => Object.hasOwn(DEFAULT_LIMITS, name);

/** `name=points/seconds,…` (GATEWAY_RATE_LIMITS) over the defaults. */
export function parseLimits(text: string): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z-]+)=(\d+)\/(\d+)$/.exec(part);
    const name = match?.[1] ?? '';
    const points = Number(match?.[2]);
    const seconds = Number(match?.[3]);
    if (!match || !isLimitName(name) || points < 1 || seconds < 1) {
      throw new Error(`"${part}" is not name=points/seconds with a name among ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    }
    limits[name] = { points, seconds };
  }
  return limits;
}

/** A 429 that says when to come back (the HTTP layer sends it as Retry-After). */
export class RateLimited extends ApiError {
  constructor(retryAfterSeconds: number, message: string) {
    super('RateLimitingApplied', { message, retryable: true, retryAfterSeconds });
  }
}

/** One limit, counted per subject in the RateLimit table, so that every gateway process shares it. */
export interface Counter {
  /** Counts one point for the subject; past the limit throws RateLimited. */
  count(subject: string, message: string): Promise<void>;
  /** Takes back one point counted for the subject. */
  giveBack(subject: string): Promise<void>;
  forget(subject: string): Promise<void>;
}

const refusal = (res: RateLimiterRes, message: string) => new RateLimited(Math.max(1, Math.ceil(res.msBeforeNext / 1000)), message);

/**
 * The limits, as rate-limiter-flexible's Prisma store keeps them: a row per limit and subject,
 * incremented in the database (an upsert), so concurrent calls on any process all count. It works
 * on PostgreSQL and on the embedded database alike (docs/decisions.md). Expired rows are deleted by
 * the maintenance run (sweepExpiredLimits), not by the store's own timer, which outlived the
 * database pool at a stop ("Cannot use a pool after calling end").
 */
export function createCounters(db: Db, limits: Limits): Record<LimitName, Counter> {
  const counter = (name: LimitName): Counter => {
    const { points, seconds } = limits[name];
    const limiter = new RateLimiterPrisma({
      storeClient: db,
      tableName: 'rateLimit',
      keyPrefix: name,
      points,
      duration: seconds,
      clearExpiredByTimeout: false,
    });
    return {
      async count(subject, message) {
        await limiter.consume(subject).catch((error: unknown) => {
          throw error instanceof RateLimiterRes ? refusal(error, message) : error;
        });
      },
      async giveBack(subject) {
        await limiter.reward(subject, 1);
      },
      async forget(subject) {
        await limiter.delete(subject);
      },
    };
  };
  const names = Object.keys(DEFAULT_LIMITS) as LimitName[];
  return Object.fromEntries(names.map((name) => [name, counter(name)])) as Record<LimitName, Counter>;
}

export type Counters = ReturnType<typeof createCounters>;

/** How long an expired limit row is kept (the store's own rule): a window just ended may be read again. */
const EXPIRED_KEPT_MS = 3_600_000;

/**
 * Deletes limit rows expired for an hour; the maintenance run calls it once a minute. On the system
 * clock, as the store sets `expire` by it.
 */
export async function sweepExpiredLimits(db: Db): Promise<number> {
  const { count } = await db.rateLimit.deleteMany({ where: { expire: { lt: new Date(Date.now() - EXPIRED_KEPT_MS) } } });
  return count;
}
