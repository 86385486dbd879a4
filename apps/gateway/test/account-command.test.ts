import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountCommand as account, card, client, createAccount, startTestGateway, type TestGateway } from './harness';

/** `npm run -s account -- …`, the operators' command for merchant accounts (issue 12, point 10). */

async function created(env: Record<string, string>, name: string) {
  const { code, stdout, stderr } = await account(env, 'create', '--name', name);
  expect(code, stderr).toBe(0);
  const keys = JSON.parse(stdout) as { accountId: string; secretKey: string; publicKey: string };
  expect(Object.keys(keys).sort()).toEqual(['accountId', 'publicKey', 'secretKey']);
  return keys;
}

const toClose: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of toClose.reverse()) await close();
});

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL, beside a running gateway', () => {
  it('creates an account whose keys work at once and see only their own data; lists and disables it', async () => {
    const t = await startTestGateway();
    toClose.push(() => t.close());
    const env = { DATABASE_URL: t.databaseUrl ?? '' };
    const a = await createAccount(t);
    const charge = await a.api.post('/charge/card', { amount: 10, providerId: a.providerIds[0], paymentInformation: card() });
    expect(charge.status).toBe(201);

    const b = await created(env, 'Second shop');
    const api = client(t.url, b.secretKey);
    expect((await api.get('/charge')).body).toMatchObject({ count: 0 });
    expect((await api.get(`/charge/${String(charge.body.chargeId)}`)).status).toBe(404);
    const token = await client(t.url).post('/token/card', { paymentInformation: card() }, { 'x-publickey': b.publicKey });
    expect(token.status).toBe(400); // a known key: the account has no provider to tokenise with

    const refused = await account(env, 'create', '--name', '5555-5555-5555-4444');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('name: Looks like a card number');

    const list = await account(env, 'list');
    expect(JSON.parse(list.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ accountId: b.accountId, name: 'Second shop', disabledAt: null })]),
    );

    expect((await account(env, 'disable', b.accountId)).code).toBe(0);
    expect((await client(t.url).post('/token/card', { paymentInformation: card() }, { 'x-publickey': b.publicKey })).status).toBe(401);
    // Another process remembers a secret key for up to 10 s.
    const deadline = Date.now() + 30_000;
    while ((await api.get('/charge')).status !== 401 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect((await api.get('/charge')).status).toBe(401);
    expect((await a.api.get('/charge')).status).toBe(200);
    const unknown = await account(env, 'disable', 'no-such-account');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account no-such-account');
  }, 120_000);
});

describe('on the embedded database', () => {
  it('opens the folder itself when no gateway runs, and goes through the running gateway’s socket (0600) when one does', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'account-command-'));
    toClose.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: '', GATEWAY_DATA_DIR: dataDir };
    const first = await created(env, 'Before the gateway');

    const t: TestGateway = await startTestGateway({ databaseUrl: undefined, dataDir });
    toClose.push(() => t.close());
    expect(statSync(join(dataDir, 'accounts.sock')).mode & 0o777).toBe(0o600);
    const second = await created(env, 'While it runs');
    for (const keys of [first, second]) expect((await client(t.url, keys.secretKey).get('/charge')).status).toBe(200);

    // A name is free text: no card number in it, as on the API.
    const refused = await account(env, 'create', '--name', '4111 1111 1111 1111');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('name: Looks like a card number');
    expect(refused.stdout + refused.stderr).not.toContain('4111 1111 1111 1111');
    const names = (JSON.parse((await account(env, 'list')).stdout) as Array<{ name: string }>).map((a) => a.name);
    expect(names).toEqual(['Before the gateway', 'While it runs']);
    expect((await account(env, 'disable', second.accountId)).code).toBe(0);
    expect((await client(t.url, second.secretKey).get('/charge')).status).toBe(401);
    expect((await client(t.url, first.secretKey).get('/charge')).status).toBe(200);
  }, 120_000);
});

describe('a gateway that hangs up without answering', () => {
  it('makes the command fail with a clear message (exit 1), not crash', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'account-command-'));
    toClose.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // It reads the command, then closes the connection with no answer.
    const silent = createServer((socket) => socket.once('data', () => socket.end()));
    await new Promise<void>((resolve) => silent.listen(join(dataDir, 'accounts.sock'), resolve));
    toClose.push(async () => void silent.close());
    const { code, stdout, stderr } = await account({ DATABASE_URL: '', GATEWAY_DATA_DIR: dataDir }, 'list');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      `The gateway that holds ${join(dataDir, 'accounts.sock')} hung up without answering: see its log, then run the command again`,
    );
  }, 60_000);
});
