import { randomBytes, randomUUID } from 'node:crypto';

/** Opaque resource id: 32 lowercase hex characters (charges, customers, payment methods). */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** Provider ids are UUIDs, as the client SDKs' samples show. */
export function newUuid(): string {
  return randomUUID();
}

/** Token ids: 24 hex characters. */
export function newTokenId(): string {
  return randomBytes(12).toString('hex');
}
