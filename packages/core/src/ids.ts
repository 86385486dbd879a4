import { randomBytes, randomUUID } from 'node:crypto';

/** Opaque resource id: 32 lowercase hex characters (charges, customers, payment methods). */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** Provider ids are UUIDs, as the client SDKs' samples show. */
export function newUuid(): string {
  return randomUUID();
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has the shape of a provider id (a UUID); anything else names no provider. */
export function isUuid(id: string): boolean {
  return UUID_SHAPE.test(id);
}

/** Token ids: 24 hex characters. */
export function newTokenId(): string {
  return randomBytes(12).toString('hex');
}
