import { createHash } from 'node:crypto';

/**
 * A value derived from the gateway's key that fits in `limit` characters: the key itself when it
 * fits, else a digest of it. The same key always gives the same value.
 */
export function fitKey(value: string, limit: number): string {
  if (value.length <= limit) return value;
  return createHash('sha256').update(value).digest('base64url').slice(0, Math.min(limit, 43));
}

/** The idempotency key of one sub-call of a gateway call (`part` names the sub-call), within a provider's `limit`. */
export function subCallKeyWithin(limit: number): (idempotencyKey: string, part?: string) => string {
  return (idempotencyKey, part) => {
    const suffix = part ? `:${part}` : '';
    return `${fitKey(idempotencyKey, limit - suffix.length)}${suffix}`;
  };
}
