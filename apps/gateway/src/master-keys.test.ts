import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readConfig } from './config';
import { loadKeyring } from './master-keys';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('vault configuration', () => {
  it('reads GATEWAY_MASTER_KEYS (current first) and GATEWAY_CCV_RETENTION_SECONDS', () => {
    const config = readConfig({ GATEWAY_MASTER_KEYS: `new:${KEY}, old:${KEY}`, GATEWAY_CCV_RETENTION_SECONDS: '90' });
    expect(config.masterKeys?.currentKeyId).toBe('new');
    expect([...(config.masterKeys?.keys.keys() ?? [])]).toEqual(['new', 'old']);
    expect(config.ccvRetentionSeconds).toBe(90);
    expect(readConfig({}).ccvRetentionSeconds).toBe(300);
    expect(() => readConfig({ GATEWAY_MASTER_KEYS: 'k1:short' })).toThrow(/^GATEWAY_MASTER_KEYS: master key k1 must be 32 bytes/);
    expect(() => readConfig({ GATEWAY_CCV_RETENTION_SECONDS: '86400' })).toThrow(/between 1 and 3600/);
  });

  it('without GATEWAY_MASTER_KEYS, keeps a generated key in <dataDir>/master-keys once told to, and warns', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'gateway-keys-')), 'data');
    const logger = { warn: vi.fn() };
    const generated = loadKeyring({ masterKeys: undefined, dataDir }, logger);
    const file = join(dataDir, 'master-keys');
    expect(existsSync(file)).toBe(false);
    generated.keep();
    const first = generated.keyring;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^local-1:[A-Za-z0-9+/]{43}=\n$/);
    expect(logger.warn).toHaveBeenCalledWith({ file }, expect.stringContaining('Production must set GATEWAY_MASTER_KEYS'));

    const again = loadKeyring({ masterKeys: undefined, dataDir }, logger).keyring;
    expect(again.keys.get('local-1')).toEqual(first.keys.get('local-1'));
    expect(() => loadKeyring({ masterKeys: undefined, dataDir: join(dataDir, 'elsewhere') }, logger, { create: false })).toThrow(
      /No vault master key: set GATEWAY_MASTER_KEYS/,
    );
  });
});
