import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newMasterKey, parseKeyring, type Keyring } from '@gateway/core';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config';

export interface LoadedKeyring {
  keyring: Keyring;
  /**
   * Writes a key this start generated to its file (nothing for a key read or given): called once
   * the database's key check accepted it, so a refused start leaves no key file behind.
   */
  keep(): void;
}

/**
 * The vault's keyring: GATEWAY_MASTER_KEYS when set. Otherwise a key kept in
 * `<dataDir>/master-keys` (mode 600, written in the GATEWAY_MASTER_KEYS format), generated on the
 * first start when `create` is set (and written by `keep`). A key on the same disk as the data it
 * protects protects little: fine for a laptop, not for production, and the log says so at every start.
 */
export function loadKeyring(
  config: Pick<GatewayConfig, 'masterKeys' | 'dataDir'>,
  logger: Pick<Logger, 'warn'>,
  { create = true } = {},
): LoadedKeyring {
  const keep = () => undefined;
  if (config.masterKeys) return { keyring: config.masterKeys, keep };
  const file = join(config.dataDir, 'master-keys');
  let loaded: LoadedKeyring;
  try {
    loaded = { keyring: parseKeyring(readFileSync(file, 'utf8')), keep };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) {
      throw new Error(`No vault master key: set GATEWAY_MASTER_KEYS (docs/vault.md); ${file}: ${(error as Error).message}`);
    }
    const text = `local-1:${newMasterKey()}\n`;
    loaded = {
      keyring: parseKeyring(text),
      keep() {
        mkdirSync(config.dataDir, { recursive: true });
        // 'wx': a file another process wrote meanwhile is not overwritten (this start then fails).
        writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
        logger.warn({ file }, 'generated a vault master key');
      },
    };
  }
  logger.warn(
    { file },
    'GATEWAY_MASTER_KEYS is not set: the vault master key is read from a file next to the data it protects. ' +
      'Production must set GATEWAY_MASTER_KEYS from a secret store (docs/vault.md).',
  );
  return loaded;
}
