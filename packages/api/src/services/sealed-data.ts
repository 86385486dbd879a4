import { rewrap, type Keyring, type Sealed } from '@gateway/core';
import type { Db } from '@gateway/db';

/**
 * Where sealed values (packages/core/src/crypto/envelope.ts) live in the database, and the
 * associated data that binds each to its row and field. Key rotation goes through this list, so a
 * new sealed column must be added here.
 */

export const vaultAad = (vaultItemId: string, field: 'pan' | 'ccv') => `vault:${vaultItemId}:${field}`;
export const providerCredentialsAad = (providerId: string) => `provider:${providerId}:credentials`;
export const signingKeyAad = (accountId: string) => `account:${accountId}:signing-key`;
export const webhookAuthorizationAad = (table: 'WebhookSubscription' | 'WebhookDelivery', id: string) => `${table}:${id}:authorization`;
/** Tables whose `webhook` JSON column keeps the webhook object of the request that made the row. */
export type WebhookOwner = 'Customer' | 'PaymentMethod' | 'Charge' | 'Batch' | 'Subscription';
export const storedWebhookAad = (table: WebhookOwner, id: string) => `${table}:${id}:webhook`;
export const keyCheckAad = (id: string) => `KeyCheck:${id}:value`;

/** The three columns of a sealed value (key id, wrapped data key, ciphertext), as Prisma writes them. */
export function sealedColumns(sealed: Sealed) {
  return { keyId: sealed.keyId, key: new Uint8Array(sealed.wrappedKey), value: new Uint8Array(sealed.ciphertext) };
}

/** A sealed value from its three columns (key id, wrapped data key, ciphertext); undefined once erased. */
export function sealedValue(keyId: string | null, key: Uint8Array | null, value: Uint8Array | null): Sealed | undefined {
  return keyId === null || key === null || value === null
    ? undefined
    : { keyId, wrappedKey: Buffer.from(key), ciphertext: Buffer.from(value) };
}

/** Where one kind of sealed value lives: SQL for its key id, wrapped key and ciphertext, and how to store a re-wrapped key. */
interface SealedPlace {
  table: string;
  /** Table and column, e.g. "VaultItem.pan". */
  place: string;
  keyId: string;
  key: string;
  value: string;
  /** Stores key id $1 and wrapped key $2. */
  set: string;
  aad(id: string): string;
}

function columns(table: string, keyId: string, key: string, value: string, aad: (id: string) => string): SealedPlace {
  return {
    table,
    place: `${table}.${value}`,
    keyId: `"${keyId}"`,
    key: `"${key}"`,
    value: `"${value}"`,
    set: `"${keyId}" = $1, "${key}" = $2`,
    aad,
  };
}

/** The authorization of a request's webhook, sealed inside the row's `webhook` JSON (webhooks/authorization.ts). */
function webhookJson(table: WebhookOwner): SealedPlace {
  const part = (name: string) => `("webhook"->'sealedAuthorization'->>'${name}')`;
  return {
    table,
    place: `${table}.webhook`,
    keyId: part('keyId'),
    key: `decode(${part('key')}, 'base64')`,
    value: `decode(${part('value')}, 'base64')`,
    set: `"webhook" = jsonb_set(jsonb_set("webhook", '{sealedAuthorization,keyId}', to_jsonb($1::text)),
            '{sealedAuthorization,key}', to_jsonb(replace(encode($2::bytea, 'base64'), chr(10), '')))`,
    aad: (id) => storedWebhookAad(table, id),
  };
}

const SEALED_PLACES: readonly SealedPlace[] = [
  columns('VaultItem', 'panKeyId', 'panKey', 'pan', (id) => vaultAad(id, 'pan')),
  columns('VaultItem', 'ccvKeyId', 'ccvKey', 'ccv', (id) => vaultAad(id, 'ccv')),
  columns('Provider', 'credentialsKeyId', 'credentialsKey', 'credentials', providerCredentialsAad),
  columns('Account', 'signingKeyId', 'signingKeyKey', 'signingKey', signingKeyAad),
  columns('WebhookSubscription', 'authorizationKeyId', 'authorizationKey', 'authorization', (id) =>
    webhookAuthorizationAad('WebhookSubscription', id),
  ),
  columns('WebhookDelivery', 'authorizationKeyId', 'authorizationKey', 'authorization', (id) =>
    webhookAuthorizationAad('WebhookDelivery', id),
  ),
  ...(['Customer', 'PaymentMethod', 'Charge', 'Batch', 'Subscription'] as const).map(webhookJson),
  columns('KeyCheck', 'keyId', 'key', 'value', keyCheckAad),
];

/**
 * One sealed value the database holds outside the key check, if any (with where it is and its
 * associated data): what a database made before the key check existed is checked against.
 */
export async function anySealedValue(db: Db): Promise<{ place: string; sealed: Sealed; aad: string } | undefined> {
  for (const c of SEALED_PLACES.filter((place) => place.table !== 'KeyCheck')) {
    const [row] = await db.$queryRawUnsafe<Array<{ id: string; keyId: string; key: Uint8Array; value: Uint8Array }>>(
      `SELECT "id", ${c.keyId} AS "keyId", ${c.key} AS "key", ${c.value} AS "value" FROM "${c.table}"
       WHERE ${c.keyId} IS NOT NULL AND ${c.key} IS NOT NULL AND ${c.value} IS NOT NULL LIMIT 1`,
    );
    const sealed = row && sealedValue(row.keyId, row.key, row.value);
    if (row && sealed) return { place: c.place, sealed, aad: c.aad(row.id) };
  }
  return undefined;
}

export interface SealedCount {
  /** Table and column, e.g. "VaultItem.pan". */
  place: string;
  keyId: string;
  count: number;
}

/** How many sealed values each master key wraps, per place. */
export async function countSealedByKey(db: Db): Promise<SealedCount[]> {
  const counts: SealedCount[] = [];
  for (const c of SEALED_PLACES) {
    const rows = await db.$queryRawUnsafe<Array<{ keyId: string; count: number }>>(
      `SELECT ${c.keyId} AS "keyId", count(*)::int AS "count" FROM "${c.table}"
       WHERE ${c.keyId} IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    counts.push(...rows.map((row) => ({ place: c.place, keyId: row.keyId, count: row.count })));
  }
  return counts;
}

export interface RewrapResult {
  rewrapped: number;
  /** Values that could not be re-wrapped (e.g. their key is not in the keyring); never card data. */
  failures: Array<{ place: string; id: string; keyId: string; error: string }>;
}

/**
 * Re-wraps the data key of every sealed value not under the current master key, batch by batch.
 * Only the wrapped data keys change, with a conditional update (a value erased or re-wrapped
 * meanwhile is left alone), so the command can be stopped and run again at any time.
 */
export async function rewrapSealedData(db: Db, keyring: Keyring, { batchSize = 500 } = {}): Promise<RewrapResult> {
  const result: RewrapResult = { rewrapped: 0, failures: [] };
  for (const c of SEALED_PLACES) {
    let after = '';
    for (;;) {
      const rows = await db.$queryRawUnsafe<Array<{ id: string; keyId: string; key: Uint8Array; value: Uint8Array }>>(
        `SELECT "id", ${c.keyId} AS "keyId", ${c.key} AS "key", ${c.value} AS "value" FROM "${c.table}"
         WHERE ${c.keyId} IS NOT NULL AND ${c.keyId} <> $1 AND "id" > $2 ORDER BY "id" LIMIT ${batchSize}`,
        keyring.currentKeyId,
        after,
      );
      for (const row of rows) {
        const sealed = sealedValue(row.keyId, row.key, row.value);
        if (!sealed) continue; // not a whole sealed value: nothing to re-wrap
        try {
          const moved = rewrap(sealed, c.aad(row.id), keyring);
          result.rewrapped += await db.$executeRawUnsafe(
            `UPDATE "${c.table}" SET ${c.set} WHERE "id" = $3 AND ${c.keyId} = $4 AND ${c.key} = $5`,
            moved.keyId,
            moved.wrappedKey,
            row.id,
            row.keyId,
            sealed.wrappedKey,
          );
        } catch (error) {
          result.failures.push({ place: c.place, id: row.id, keyId: row.keyId, error: (error as Error).message });
        }
      }
      const last = rows.at(-1);
      if (!last) break;
      after = last.id;
    }
  }
  return result;
}
