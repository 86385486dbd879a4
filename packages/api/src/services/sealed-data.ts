import { rewrap, type Keyring, type Sealed } from '@gateway/core';
import type { Db } from '@gateway/db';

/**
 * Where sealed values (packages/core/src/crypto/envelope.ts) live in the database, and the
 * associated data that binds each to its row and field. Key rotation goes through this list, so a
 * new sealed column must be added here.
 */

export const vaultAad = (vaultItemId: string, field: 'pan' | 'ccv') => `vault:${vaultItemId}:${field}`;
export const providerCredentialsAad = (providerId: string) => `provider:${providerId}:credentials`;

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

interface SealedColumns {
  table: 'VaultItem' | 'Provider';
  keyId: string;
  key: string;
  value: string;
  aad(id: string): string;
}

const SEALED_COLUMNS: readonly SealedColumns[] = [
  { table: 'VaultItem', keyId: 'panKeyId', key: 'panKey', value: 'pan', aad: (id) => vaultAad(id, 'pan') },
  { table: 'VaultItem', keyId: 'ccvKeyId', key: 'ccvKey', value: 'ccv', aad: (id) => vaultAad(id, 'ccv') },
  { table: 'Provider', keyId: 'credentialsKeyId', key: 'credentialsKey', value: 'credentials', aad: providerCredentialsAad },
];

const place = (c: SealedColumns) => `${c.table}.${c.value}`;

export interface SealedCount {
  /** Table and column, e.g. "VaultItem.pan". */
  place: string;
  keyId: string;
  count: number;
}

/** How many sealed values each master key wraps, per place. */
export async function countSealedByKey(db: Db): Promise<SealedCount[]> {
  const counts: SealedCount[] = [];
  for (const c of SEALED_COLUMNS) {
    const rows = await db.$queryRawUnsafe<Array<{ keyId: string; count: number }>>(
      `SELECT "${c.keyId}" AS "keyId", count(*)::int AS "count" FROM "${c.table}"
       WHERE "${c.keyId}" IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    counts.push(...rows.map((row) => ({ place: place(c), keyId: row.keyId, count: row.count })));
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
  for (const c of SEALED_COLUMNS) {
    let after = '';
    for (;;) {
      const rows = await db.$queryRawUnsafe<Array<{ id: string; keyId: string; key: Uint8Array; value: Uint8Array }>>(
        `SELECT "id", "${c.keyId}" AS "keyId", "${c.key}" AS "key", "${c.value}" AS "value" FROM "${c.table}"
         WHERE "${c.keyId}" IS NOT NULL AND "${c.keyId}" <> $1 AND "id" > $2 ORDER BY "id" LIMIT ${batchSize}`,
        keyring.currentKeyId,
        after,
      );
      for (const row of rows) {
        const sealed = sealedValue(row.keyId, row.key, row.value);
        if (!sealed) continue; // not a whole sealed value: nothing to re-wrap
        try {
          const moved = rewrap(sealed, c.aad(row.id), keyring);
          result.rewrapped += await db.$executeRawUnsafe(
            `UPDATE "${c.table}" SET "${c.keyId}" = $1, "${c.key}" = $2 WHERE "id" = $3 AND "${c.keyId}" = $4 AND "${c.key}" = $5`,
            moved.keyId,
            moved.wrappedKey,
            row.id,
            row.keyId,
            sealed.wrappedKey,
          );
        } catch (error) {
          result.failures.push({ place: place(c), id: row.id, keyId: row.keyId, error: (error as Error).message });
        }
      }
      const last = rows.at(-1);
      if (!last) break;
      after = last.id;
    }
  }
  return result;
}
