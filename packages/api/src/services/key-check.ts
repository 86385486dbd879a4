import { open, seal, type Keyring } from '@gateway/core';
import type { Db } from '@gateway/db';
import { keyCheckAad, sealedColumns, sealedValue } from './sealed-data';

const ID = 'vault';
const CHECK = 'gateway master key check';

/**
 * Makes sure the master keys can open what the database holds, before the gateway touches
 * anything: the first start seals a known value with the current key; every start opens it. A
 * gateway with other keys would fail on every sealed value (cards, credentials, signing keys) and
 * make tokens no other process can read. Key rotation re-wraps the value with the rest
 * (sealed-data.ts). Throws a message that says what to fix.
 */
export async function checkMasterKeys(db: Db, keyring: Keyring): Promise<void> {
  for (;;) {
    const row = await db.keyCheck.findUnique({ where: { id: ID } });
    if (!row) {
      // Two first starts at once: one row wins, and both check it.
      await db.keyCheck.createMany({ data: [{ id: ID, ...sealedColumns(seal(CHECK, keyCheckAad(ID), keyring)) }], skipDuplicates: true });
      continue;
    }
    const sealed = sealedValue(row.keyId, row.key, row.value);
    let opened = false;
    try {
      opened = sealed !== undefined && open(sealed, keyCheckAad(ID), keyring) === CHECK;
    } catch {
      opened = false;
    }
    if (opened) return;
    throw new Error(
      `The vault master keys (${[...keyring.keys.keys()].join(', ')}) cannot open this database's key check, sealed with key "${row.keyId}": ` +
        'this gateway has other keys than the ones that sealed its data. Start it with the same GATEWAY_MASTER_KEYS ' +
        '(or master-keys file) as the other gateways of this database (docs/vault.md). Nothing was changed.',
    );
  }
}
