import { createHmac } from 'node:crypto';
import { ApiError, ERROR_NAMES, type ErrorName } from '@gateway/core';
import type { Prisma } from '@gateway/db';
import type { Dependencies } from './deps';
import { deleteInBatches } from './prune';

/**
 * Idempotency-Key handling for POSTs that create. The first request with a key claims it
 * (an insert that only one concurrent request can win), runs, and stores its answer; later
 * requests with the same key and the same body get that answer again, a different body is
 * refused (422), and a duplicate that arrives while the first still runs is refused (409)
 * rather than run twice. After a server error (5xx) the key stays claimed: money may have moved.
 * The maintenance sweep releases such keys once abandoned charges have been reversed
 * (RELEASE_AFTER_MS), and forgets finished keys after their retention (GATEWAY_IDEMPOTENCY_RETENTION_HOURS).
 *
 * The fingerprint is an HMAC under a key derived from the master keyring, never a plain hash: a
 * request body holds card data, and a plain hash of it could be brute-forced from the masked card.
 */

type Claim = { kind: 'new' } | { kind: 'replay'; data?: unknown; error?: ApiError };

interface StoredError {
  name: ErrorName;
  message: string;
  http: number;
  retryable: boolean;
  details?: Record<string, string>;
  gatewayCode?: string;
  gatewayMessage?: string;
}

type StoredResponse = { data: unknown } | { error: StoredError };

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Finished keys are answered for a day by default, as payment APIs commonly do. */
export const DEFAULT_IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
const PRUNE_BATCH = 1_000;
/** Longer than a charge can take, and than the sweep needs to reverse an abandoned one. */
const RELEASE_AFTER_MS = 5 * 60_000;

function fingerprint(masterKey: Buffer, request: { method: string; path: string }, input: unknown): string {
  const key = createHmac('sha256', masterKey).update('idempotency fingerprint').digest();
  return createHmac('sha256', key)
    .update(`${request.method} ${request.path.toLowerCase().replace(/\/+$/, '')}\n${stableJson(input)}`)
    .digest('hex');
}

function toStored(error: ApiError): StoredError {
  const { errorName: name, message, http, retryable, details, gatewayCode, gatewayMessage } = error;
  return { name, message, http, retryable, details, gatewayCode, gatewayMessage };
}

function fromStored(stored: StoredError): ApiError {
  const name = ERROR_NAMES.includes(stored.name) ? stored.name : 'UnknownError';
  return new ApiError(name, stored);
}

export function createIdempotencyService({ db, clock, config }: Dependencies) {
  const { keyring } = config;
  const current = (request: { method: string; path: string }, input: unknown) =>
    fingerprint(keyring.keys.get(keyring.currentKeyId) ?? Buffer.alloc(0), request, input);
  /** A key claimed before a master-key rotation still matches the same request. */
  const matches = (stored: string, request: { method: string; path: string }, input: unknown) =>
    [...keyring.keys.values()].some((key) => fingerprint(key, request, input) === stored);

  return {
    async claim(accountId: string, key: string, request: { method: string; path: string }, input: unknown): Promise<Claim> {
      if (key.length > 255) throw new ApiError('ValidationError', { details: { 'Idempotency-Key': 'At most 255 characters' } });
      const print = current(request, input);
      const { count } = await db.idempotencyKey.createMany({
        data: [{ accountId, key, fingerprint: print, state: 'IN_PROGRESS', createdAt: clock.now() }],
        skipDuplicates: true,
      });
      if (count === 1) return { kind: 'new' };

      const existing = await db.idempotencyKey.findUnique({ where: { accountId_key: { accountId, key } } });
      if (!existing) return this.claim(accountId, key, request, input); // released meanwhile
      if (existing.fingerprint !== print && !matches(existing.fingerprint, request, input)) {
        throw new ApiError('Duplicate', { http: 422, message: 'This Idempotency-Key was already used with a different request' });
      }
      if (existing.state === 'IN_PROGRESS') {
        throw new ApiError('Duplicate', {
          http: 409,
          retryable: true,
          message: 'A request with this Idempotency-Key is still in progress',
        });
      }
      const stored = existing.responseBody as unknown as StoredResponse;
      return 'error' in stored ? { kind: 'replay', error: fromStored(stored.error) } : { kind: 'replay', data: stored.data };
    },

    async settle(accountId: string, key: string, outcome: { data: unknown } | { error: ApiError }): Promise<void> {
      const where = { accountId_key: { accountId, key } };
      if ('error' in outcome && outcome.error.http >= 500) return;
      const response: StoredResponse = 'error' in outcome ? { error: toStored(outcome.error) } : { data: outcome.data };
      await db.idempotencyKey.update({
        where,
        data: {
          state: 'COMPLETED',
          responseStatus: 'error' in outcome ? outcome.error.http : 200,
          responseBody: response as unknown as Prisma.InputJsonValue,
        },
      });
    },

    /** Releases keys abandoned after a server error or a crash, and forgets old finished ones, in batches. */
    async sweep(): Promise<number> {
      const now = clock.now().getTime();
      const retainMs = config.retention?.idempotencyKeysMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS;
      const older = (state: 'IN_PROGRESS' | 'COMPLETED', ms: number) =>
        deleteInBatches(
          PRUNE_BATCH,
          (limit) => db.$executeRaw`
            DELETE FROM "IdempotencyKey" WHERE ("accountId", "key") IN (
              SELECT "accountId", "key" FROM "IdempotencyKey"
              WHERE "state" = ${state}::"IdempotencyState" AND "createdAt" < ${new Date(now - ms).toISOString()}::timestamptz
              LIMIT ${limit})`,
        );
      return (await older('IN_PROGRESS', RELEASE_AFTER_MS)) + (await older('COMPLETED', retainMs));
    },
  };
}
