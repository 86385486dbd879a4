/**
 * `pnpm --filter @gateway/gateway vault:rewrap`: re-wraps the data key of every sealed value
 * (vault cards, provider credentials) with the current master key — the first of
 * GATEWAY_MASTER_KEYS — and prints how many values each key id wraps. Safe to stop and run again.
 * The rotation procedure is in docs/vault.md.
 */
import { join } from 'node:path';
import { countSealedByKey, rewrapSealedData } from '@gateway/api';
import { openDatabase, type Db } from '@gateway/db';
import { readConfig } from '../config';
import { createLogger } from '../logger';
import { loadKeyring } from '../master-keys';

const config = readConfig();
const logger = createLogger(config.logLevel);
const { keyring } = loadKeyring(config, logger, { create: false });
const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db') });

async function printCounts(db: Db, title: string) {
  process.stdout.write(`${title}\n`);
  for (const { place, keyId, count } of await countSealedByKey(db)) {
    process.stdout.write(`  ${place.padEnd(20)} ${keyId.padEnd(34)} ${count}\n`);
  }
}

try {
  process.stdout.write(`Current master key: ${keyring.currentKeyId} (keyring: ${[...keyring.keys.keys()].join(', ')})\n`);
  await printCounts(database.prisma, 'Sealed values by master key id, before:');
  const { rewrapped, failures } = await rewrapSealedData(database.prisma, keyring);
  process.stdout.write(`Re-wrapped ${rewrapped} data keys.\n`);
  for (const f of failures) process.stdout.write(`  FAILED ${f.place} ${f.id} (key ${f.keyId}): ${f.error}\n`);
  await printCounts(database.prisma, 'Sealed values by master key id, after:');
  process.exitCode = failures.length > 0 ? 1 : 0;
} finally {
  await database.close();
}
