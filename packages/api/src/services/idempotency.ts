import { createHash } from 'node:crypto';
import { ApiError, ERROR_NAMES, type ErrorName } from '@gateway/core';
import type { Prisma } from '@gateway/db';
import type { Dependencies } from './deps';

/**
 * Idempotency-Key handling for POSTs that create. The first request with a key claims it
 * (an insert that only one concurrent request can win), runs, and stores its answer; later
 * requests with the same key and the same body get that answer again, a different body is
 * refused (422), and a duplicate that arrives while the first still runs is refused (409)
 * rather than run twice. Server errors (5xx) release the key so the client can retry.
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

function fingerprint(request: { method: string; path: string }, input: unknown): string {
  return createHash('sha256')
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

export function createIdempotencyService({ db }: Dependencies) {
  return {
    async claim(accountId: string, key: string, request: { method: string; path: string }, input: unknown): Promise<Claim> {
      if (key.length > 255) throw new ApiError('ValidationError', { details: { 'Idempotency-Key': 'At most 255 characters' } });
      const print = fingerprint(request, input);
      const { count } = await db.idempotencyKey.createMany({
        data: [{ accountId, key, fingerprint: print, state: 'IN_PROGRESS' }],
        skipDuplicates: true,
      });
      if (count === 1) return { kind: 'new' };

      const existing = await db.idempotencyKey.findUnique({ where: { accountId_key: { accountId, key } } });
      if (!existing) return this.claim(accountId, key, request, input); // released meanwhile
      if (existing.fingerprint !== print) {
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
      if ('error' in outcome && outcome.error.http >= 500) {
        await db.idempotencyKey.delete({ where });
        return;
      }
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
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
