import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

const POSTGRES = { DATABASE_URL: 'postgresql://gateway@db:5432/gateway' };

describe('processes, pool budget and shutdown in the configuration', () => {
  it('defaults to one process with the whole pool and a 25-second shutdown', () => {
    expect(readConfig({})).toMatchObject({ workers: 1, databasePoolSize: 10, shutdownTimeoutSeconds: 25 });
  });

  it('divides GATEWAY_DB_POOL_SIZE among the workers, rounding down, so the host stays within it', () => {
    expect(readConfig({ ...POSTGRES, GATEWAY_WORKERS: '3' })).toMatchObject({ workers: 3, databasePoolSize: 3 });
    expect(readConfig({ ...POSTGRES, GATEWAY_WORKERS: '2', GATEWAY_DB_POOL_SIZE: '40' })).toMatchObject({ databasePoolSize: 20 });
    expect(() => readConfig({ ...POSTGRES, GATEWAY_WORKERS: '4', GATEWAY_DB_POOL_SIZE: '6' })).toThrow(
      'GATEWAY_DB_POOL_SIZE=6 leaves 1 connection(s) to each of the 4 processes of GATEWAY_WORKERS; each needs at least 2: raise GATEWAY_DB_POOL_SIZE to 8 or more.',
    );
  });

  it('refuses several processes on the embedded database, and counts that are not counts', () => {
    expect(() => readConfig({ GATEWAY_WORKERS: '2' })).toThrow(/^GATEWAY_WORKERS=2 needs PostgreSQL \(DATABASE_URL\)/);
    expect(() => readConfig({ ...POSTGRES, GATEWAY_WORKERS: '0' })).toThrow('GATEWAY_WORKERS must be an integer of at least 1, got "0"');
    expect(() => readConfig({ GATEWAY_SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      /GATEWAY_SHUTDOWN_TIMEOUT_SECONDS must be an integer of at least 1/,
    );
    expect(() => readConfig({ GATEWAY_DB_POOL_SIZE: '1' })).toThrow(/GATEWAY_DB_POOL_SIZE must be an integer of at least 2/);
  });
});
