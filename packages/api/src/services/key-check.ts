import { open, seal, type Keyring, type Sealed } from '@gateway/core';
import type { Db } from '@gateway/db';
import { anySealedValue, keyCheckAad, sealedColumns, sealedValue } from './sealed-data';

const ID = 'vault';
const CHECK = 'gateway master key check';

const opens = (sealed: Sealed | undefined, aad: string, keyring: Keyring, expected?: string) => {
  try {
    const text = sealed && open(sealed, aad, keyring);
    return text !== undefined && (expected === undefined || text === expected);
  } catch {
    return false;
  }
};

/**
 * Makes sure the master keys can open what the database holds, before the gateway touches
 * anything: the first start seals a known value with the current key (once the keys opened a
 * sealed value already there, for a database made before the key check); every start opens it. A
 * gateway with other keys would fail on every sealed value (cards, credentials, signing keys) and
 * make tokens no other process can read. Key rotation re-wraps the value with the rest
 * (sealed-data.ts). Throws a message that says what to fix.
 */
export async function checkMasterKeys(db: Db, keyring: Keyring): Promise<void> {
  for (;;) {
    const row = await db.keyCheck.findUnique({ where: { id: ID } });
    if (!row) {
      const existing = await anySealedValue(db);
      if (existing && !opens(existing.sealed, existing.aad, keyring)) {
        throw new Error(
          `The vault master keys (${[...keyring.keys.keys()].join(', ')}) cannot open the sealed data this database already holds ` +
            `(${existing.place}, sealed with key "${existing.sealed.keyId}"): start the gateway with the keys that sealed it ` +
            '(GATEWAY_MASTER_KEYS or the master-keys file, docs/vault.md). Nothing was changed.',
        );
      }
      // Two first starts at once: one row wins, and both check it.
      await db.keyCheck.createMany({ data: [{ id: ID, ...sealedColumns(seal(CHECK, keyCheckAad(ID), keyring)) }], skipDuplicates: true });
      continue;
    }
    if (opens(sealedValue(row.keyId, row.key, row.value), keyCheckAad(ID), keyring, CHECK)) return;
    throw new Error(
      `The vault master keys (${[...keyring.keys.keys()].join(', ')}) cannot open this database's key check, sealed with key "${row.keyId}": ` +
        'this gateway has other keys than the ones that sealed its data. Start it with the same GATEWAY_MASTER_KEYS ' +
        '(or master-keys file) as the other gateways of this database (docs/vault.md). Nothing was changed.',
    );
  }
}
