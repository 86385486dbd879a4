import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newMasterKey, parseKeyring, type Keyring } from '@gateway/core';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config';

/**
 * The vault's keyring: GATEWAY_MASTER_KEYS when set. Otherwise a key kept in
 * `<dataDir>/master-keys` (mode 600, written in the GATEWAY_MASTER_KEYS format), generated on the
 * first start when `create` is set. A key on the same disk as the data it protects protects little:
 * fine for a laptop, not for production, and the log says so at every start.
 */
export function loadKeyring(
  config: Pick<GatewayConfig, 'masterKeys' | 'dataDir'>,
  logger: Pick<Logger, 'warn'>,
  { create = true } = {},
): Keyring {
  if (config.masterKeys) return config.masterKeys;
  const file = join(config.dataDir, 'master-keys');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) {
      throw new Error(`No vault master key: set GATEWAY_MASTER_KEYS (docs/vault.md); ${file}: ${(error as Error).message}`);
    }
    text = `local-1:${newMasterKey()}\n`;
    mkdirSync(config.dataDir, { recursive: true });
    // 'wx': if another process created the file meanwhile, its key wins and this write fails.
    try {
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
      logger.warn({ file }, 'generated a vault master key');
    } catch {
      text = readFileSync(file, 'utf8');
    }
  }
  logger.warn(
    { file },
    'GATEWAY_MASTER_KEYS is not set: the vault master key is read from a file next to the data it protects. ' +
      'Production must set GATEWAY_MASTER_KEYS from a secret store (docs/vault.md).',
  );
  return parseKeyring(text);
}
