import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkMasterKeys, rewrapSealedData } from '@gateway/api';
import { newMasterKey, parseKeyring } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DIR, MAIN_TS } from './child-processes';
import { createAccount, startTestGateway, type TestGateway } from './harness';

/** The vault master keys are checked against the database at start (issue 12, point 4). */
let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

/** src/main.ts in a child process until it exits (it must: these starts are refused). */
function startAndExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN_TS], {
      cwd: GATEWAY_DIR,
      env: { ...process.env, PORT: '0', GATEWAY_METRICS_PORT: '0', GATEWAY_SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!process.env.DATABASE_URL)('a gateway with other master keys on the same database', () => {
  it('refuses to start with a clear message, and consumes no job', async () => {
    await createAccount(t);
    // A job due now, which any gateway of this database would run at once.
    const jobId = await t.gateway.database.prisma.job
      .create({ data: { id: `key-check-${Date.now()}`, queue: 'maintenance', payload: {} } })
      .then((job) => job.id);
    await t.gateway.worker.stop();
    const { code, output } = await startAndExit({ DATABASE_URL: t.databaseUrl ?? '', GATEWAY_MASTER_KEYS: `other:${newMasterKey()}` });
    expect(code).toBe(1);
    expect(output).toContain(
      `The gateway cannot start: The vault master keys (other) cannot open this database's key check, sealed with key "test"`,
    );
    const job = await t.gateway.database.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: 'PENDING', attempts: 0, lockedBy: null });
  }, 200_000);
});

describe('the key check', () => {
  it('is re-wrapped by key rotation: the new key alone opens it afterwards', async () => {
    const db = t.gateway.database.prisma;
    const old = t.gateway.services.config.keyring;
    const key = newMasterKey();
    const rotated = parseKeyring(`next:${key},${[...old.keys].map(([id, k]) => `${id}:${k.toString('base64')}`).join(',')}`);
    const newOnly = parseKeyring(`next:${key}`);
    await expect(checkMasterKeys(db, newOnly)).rejects.toThrow(/cannot open/);
    const { failures } = await rewrapSealedData(db, rotated);
    expect(failures).toEqual([]);
    await expect(checkMasterKeys(db, newOnly)).resolves.toBeUndefined();
    expect((await db.keyCheck.findUniqueOrThrow({ where: { id: 'vault' } })).keyId).toBe('next');
  });

  it('comes after the database: a first start that cannot reach it writes no master-keys file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'key-check-'));
    try {
      const { code, output } = await startAndExit({ DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', GATEWAY_DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(output).toMatch(/could not start/);
      expect(existsSync(join(dataDir, 'master-keys'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});
