import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('a first start of a new data folder (a key generated) leaves no key file nor acquirer state, and opens no port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'key-check-'));
    // The port is taken: a gateway that listened before its key check would fail on it instead.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      // One process, and a cluster's primary (which starts the acquirer before its workers).
      for (const workers of ['1', '2']) {
        const env = { DATABASE_URL: t.databaseUrl ?? '', GATEWAY_DATA_DIR: dataDir, PORT: port, GATEWAY_WORKERS: workers };
        const { code, output } = await startAndExit(env);
        expect(code, workers).toBe(1);
        expect(output).toContain("The gateway cannot start: The vault master keys (local-1) cannot open this database's key check");
        expect(output).not.toContain('EADDRINUSE');
        expect(readdirSync(dataDir)).toEqual([]);
      }
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});

describe('the key check', () => {
  it('on a database sealed before the key check existed, is made only by keys that open its sealed data', async () => {
    const db = t.gateway.database.prisma;
    const { api } = await createAccount(t);
    expect((await api.post('/vault', { cardNumber: '5555 5555 5555 4444', ccv: '123' })).status).toBe(200);
    await db.keyCheck.deleteMany();
    await expect(checkMasterKeys(db, parseKeyring(`other:${newMasterKey()}`))).rejects.toThrow(
      /The vault master keys \(other\) cannot open the sealed data this database already holds \(VaultItem\.pan, sealed with key "test"\)/,
    );
    expect(await db.keyCheck.count()).toBe(0);
    await expect(checkMasterKeys(db, t.gateway.services.config.keyring)).resolves.toBeUndefined();
    expect((await db.keyCheck.findUniqueOrThrow({ where: { id: 'vault' } })).keyId).toBe('test');
  });

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
