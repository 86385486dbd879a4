import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Random bytes for ids, taken from a buffer filled RANDOM_POOL bytes at a time (as Node's own
 * randomUUID does): a randomBytes call costs system calls, about 30 µs of a charge here.
 */
const RANDOM_POOL = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function randomHex(size: number): string {
  if (taken + size > pool.length) {
    pool = randomBytes(RANDOM_POOL);
    taken = 0;
  }
  taken += size;
  return pool.toString('hex', taken - size, taken);
}

/** Opaque resource id: 32 lowercase hex characters (charges, customers, payment methods). */
export function newId(): string {
  return randomHex(16);
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

const HEX_ID_SHAPE = /^(?:[0-9a-f]{32}|[0-9a-f]{24})$/;

/** Whether `text` has the shape of an id the gateway gives out: a UUID, newId's 32 or newTokenId's 24 hex characters. */
export function isGatewayId(text: string): boolean {
  return HEX_ID_SHAPE.test(text) || isUuid(text);
}

/** Token ids: 24 hex characters. */
export function newTokenId(): string {
  return randomHex(12);
}
