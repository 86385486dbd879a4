import { randomBytes } from 'node:crypto';
import { countSealedByKey, createServices, rewrapSealedData } from '@gateway/api';
import { open, seal, type Keyring } from '@gateway/core';
import { createJobQueue } from '@gateway/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { CHEAP_DOMESTIC, cardDataIn, createAccount, dumpTables, startTestGateway, type TestAccount, type TestGateway } from './harness';

/**
 * The vault over REST, and the internal reads and erasures other services use. Time is a clock the
 * test moves forward; due background jobs then run through the gateway's own worker.
 */
let t: TestGateway;
let a: TestAccount;
let b: TestAccount;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const RETENTION_S = 60;

const PAN = '5555555555554444';
const MASKED = '555555******4444';
const CCV = '7391';
const reason = { actor: 'secret-key:…test', purpose: 'charge test' };

beforeAll(async () => {
  t = await startTestGateway({ clock, ccvRetentionSeconds: RETENTION_S });
  a = await createAccount(t, []);
  b = await createAccount(t, [], { throughCommand: true });
});
afterAll(() => t.close());

const db = () => t.gateway.database.prisma;
const vault = () => t.gateway.services.vault;
const owner = () => ({ id: a.accountId });

/** Moves the clock on and runs every job then due. */
async function advance(seconds: number) {
  offsetMs += seconds * 1000;
  await t.gateway.worker.runDue();
}

async function create(body: Record<string, unknown> = {}): Promise<string> {
  const { status, body: item } = await a.api.post('/vault', { cardNumber: PAN, ccv: CCV, ...body });
  expect(status, JSON.stringify(item)).toBe(200);
  return String(item.vaultId);
}

const sealed = (id: string) =>
  db().vaultItem.findUniqueOrThrow({ where: { id }, select: { pan: true, panKey: true, ccv: true, ccvKey: true, ccvErasedAt: true } });

async function expectGone(id: string) {
  for (const response of [await a.api.get(`/vault/${id}`), await a.api.delete(`/vault/${id}`)]) {
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 62, resource: `/vault/${id}` });
  }
  await expect(vault().readCard(owner(), id, reason)).rejects.toMatchObject({ code: 62 });
}

describe('POST, GET and DELETE /vault', () => {
  it('stores a card and answers it masked only', async () => {
    const created = await a.api.post('/vault', { cardNumber: '5555 5555 5555 4444', ccv: CCV });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      vaultId: expect.stringMatching(/^[0-9a-f]{32}$/),
      createdDate: expect.any(String),
      expireDate: null,
      maskedCardNumber: MASKED,
      hasCvv: true,
    });
    expect(Math.abs(Date.parse(String(created.body.createdDate)) - clock.now().getTime())).toBeLessThan(5000);
    const id = String(created.body.vaultId);

    const got = await a.api.get(`/vault/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...created.body, cardNumber: MASKED, ccv: null });
    expect(await vault().readCard(owner(), id, reason)).toEqual({ cardNumber: PAN, ccv: CCV });

    const removed = await a.api.delete(`/vault/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ...created.body, hasCvv: false });
    expect(await sealed(id)).toMatchObject({ pan: null, panKey: null, ccv: null, ccvKey: null });
    expect(await db().vaultItem.findUnique({ where: { id } })).toMatchObject({ dateRemoved: expect.any(Date), maskedCardNumber: MASKED });
    expect(await db().job.count({ where: { dedupeKey: { in: [`vault-ccv:${id}`, `vault-expire:${id}`] } } })).toBe(0);
    await expectGone(id);
  });

  it('binds the keys and dates of every client SDK', async () => {
    const at = new Date(clock.now().getTime() + 86_400_000);
    const dotNet = await a.api.post('/vault', { CardNumber: PAN, ExpireDate: at.toISOString() });
    const java = await a.api.post('/vault', { cardNumber: PAN, ccv: null, expireDate: at.getTime(), expireSeconds: null });
    for (const { status, body } of [dotNet, java]) {
      expect(status).toBe(200);
      expect(body).toMatchObject({ expireDate: at.toISOString(), maskedCardNumber: MASKED, hasCvv: false });
    }
  });

  it.each([
    ['both expiries', 82, { expireSeconds: 60, expireDate: '2099-01-01T00:00:00Z' }],
    ['zero seconds', 83, { expireSeconds: 0 }],
    ['negative seconds', 83, { expireSeconds: '-5' }],
    ['fractional seconds', 83, { expireSeconds: 1.5 }],
    ['seconds past the end of time', 83, { expireSeconds: 1e300 }],
    ['a past date', 83, { expireDate: '2020-01-01T00:00:00Z' }],
    ['an unreadable date', 83, { expireDate: 'soon' }],
    ['a card number failing Luhn', 5, { cardNumber: '5555555555554445' }],
    ['a CCV that is not 3–4 digits', 6, { ccv: '12a' }],
    ['no card number', 90, { cardNumber: null }],
  ])('refuses %s (code %i)', async (_what, code, fields) => {
    const { status, body } = await a.api.post('/vault', { cardNumber: PAN, ...fields });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code, resource: '/vault', isRetryable: false });
  });

  it("answers another account's item as unknown (404, 62)", async () => {
    const id = await create();
    for (const response of [await b.api.get(`/vault/${id}`), await b.api.delete(`/vault/${id}`), await b.api.get('/vault/no-such-id')]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(62);
    }
    await expect(vault().readCard({ id: b.accountId }, id, reason)).rejects.toMatchObject({ code: 62 });
    expect((await a.api.get(`/vault/${id}`)).status).toBe(200);
  });
});

describe('expiry', () => {
  it('by seconds: unusable at once when due, even before its erase job ran', async () => {
    const id = await create({ expireSeconds: 30 });
    const { body } = await a.api.get(`/vault/${id}`);
    expect(Date.parse(String(body.expireDate)) - Date.parse(String(body.createdDate))).toBe(30_000);
    // Lose the erase job: expiry must not depend on it.
    await db().job.deleteMany({ where: { dedupeKey: `vault-expire:${id}` } });
    await advance(31);
    await expectGone(id);
    expect((await sealed(id)).pan).not.toBeNull();
  });

  it('by date: the card is erased by the expiry job', async () => {
    const expireDate = new Date(clock.now().getTime() + 3_600_000);
    const id = await create({ expireDate: expireDate.toISOString() });
    expect(await db().job.findUnique({ where: { dedupeKey: `vault-expire:${id}` } })).toMatchObject({
      queue: 'vault.expire',
      runAt: expireDate,
    });
    await advance(3599);
    expect((await a.api.get(`/vault/${id}`)).status).toBe(200);
    await advance(2);
    expect(await sealed(id)).toMatchObject({ pan: null, panKey: null, ccv: null, ccvKey: null });
    await expectGone(id);
  });
});

describe('the CCV', () => {
  it('is erased after the retention delay when no payment used it', async () => {
    const id = await create();
    const created = await db().vaultItem.findUniqueOrThrow({ where: { id } });
    const job = await db().job.findUniqueOrThrow({ where: { dedupeKey: `vault-ccv:${id}` } });
    expect(job).toMatchObject({ queue: 'vault.erase-ccv', runAt: new Date(created.createdDate.getTime() + RETENTION_S * 1000) });

    await advance(RETENTION_S - 1);
    expect((await a.api.get(`/vault/${id}`)).body.hasCvv).toBe(true);
    await advance(2);
    expect((await a.api.get(`/vault/${id}`)).body.hasCvv).toBe(false);
    expect(await sealed(id)).toMatchObject({ ccv: null, ccvKey: null, ccvErasedAt: expect.any(Date) });
    expect(await vault().readCard(owner(), id, reason)).toEqual({ cardNumber: PAN });
  });

  it('is erased by the first payment with the card, and its retention job cancelled', async () => {
    const id = await create();
    expect(await vault().readCard(owner(), id, reason)).toEqual({ cardNumber: PAN, ccv: CCV });
    await vault().consumeCcv(owner(), id);
    expect(await sealed(id)).toMatchObject({ pan: expect.anything(), ccv: null, ccvKey: null, ccvErasedAt: expect.any(Date) });
    expect(await db().job.findUnique({ where: { dedupeKey: `vault-ccv:${id}` } })).toBeNull();
    expect((await a.api.get(`/vault/${id}`)).body.hasCvv).toBe(false);
    expect(await vault().readCard(owner(), id, reason)).toEqual({ cardNumber: PAN });
    await vault().consumeCcv(owner(), id); // a second payment: nothing left to do
  });
});

describe('audit and storage', () => {
  it('records every clear read (who, when, which item, why, which fields), and nothing else', async () => {
    const id = await create();
    await a.api.get(`/vault/${id}`);
    expect(await db().vaultAccess.count({ where: { vaultItemId: id } })).toBe(0);

    await vault().readCard(owner(), id, { actor: 'secret-key:…ab12', purpose: 'charge c1' });
    await vault().consumeCcv(owner(), id);
    await vault().readCard(owner(), id, { actor: 'system', purpose: 'payment method from vault pm1' });
    const rows = await db().vaultAccess.findMany({ where: { vaultItemId: id }, orderBy: { at: 'asc' } });
    expect(rows).toMatchObject([
      { accountId: a.accountId, actor: 'secret-key:…ab12', purpose: 'charge c1', fields: ['cardNumber', 'ccv'], at: expect.any(Date) },
      { accountId: a.accountId, actor: 'system', purpose: 'payment method from vault pm1', fields: ['cardNumber'] },
    ]);
  });

  it('keeps no card number or CCV in clear in any table or log', async () => {
    const leaks = (text: string) => cardDataIn(text, [PAN], [CCV]);
    const tables = await dumpTables(t);
    for (const { table, rows } of tables) expect(leaks(rows.join('\n')), table).toEqual([]);
    expect(tables.find((x) => x.table === 'VaultItem')?.rows.length).toBeGreaterThan(5);
    expect(leaks(t.logs.join('\n'))).toEqual([]);
  });
});

describe('master key rotation', () => {
  it('re-wraps every data key under the new key, after which the old key can go', async () => {
    const old = t.gateway.services.config.keyring;
    const id = await create();
    const account = await db().account.findUniqueOrThrow({ where: { id: a.accountId } });
    const provider = await t.gateway.services.providers.create(account, CHEAP_DOMESTIC);
    const aad = `provider:${provider.id}:credentials`;
    const credentials = seal('{"password":"p"}', aad, old);
    await db().provider.update({
      where: { id: provider.id },
      data: {
        credentialsKeyId: credentials.keyId,
        credentialsKey: new Uint8Array(credentials.wrappedKey),
        credentials: new Uint8Array(credentials.ciphertext),
      },
    });

    const k2: Keyring = { currentKeyId: 'k2', keys: new Map([['k2', randomBytes(32)], ...old.keys]) };
    const first = await rewrapSealedData(db(), k2, { batchSize: 2 });
    expect(first.failures).toEqual([]);
    expect(first.rewrapped).toBeGreaterThan(3);
    expect(new Set((await countSealedByKey(db())).map((c) => c.keyId))).toEqual(new Set(['k2']));
    expect(await rewrapSealedData(db(), k2)).toEqual({ rewrapped: 0, failures: [] });

    // The old key removed from the keyring: everything still opens.
    const k2Only: Keyring = { currentKeyId: 'k2', keys: new Map([['k2', k2.keys.get('k2') as Buffer]]) };
    const services = createServices({
      db: db(),
      clock,
      logger: createLogger('silent'),
      config: { ...t.gateway.services.config, keyring: k2Only },
      jobs: createJobQueue({ db: db(), clock }),
    });
    expect(await services.vault.readCard(owner(), id, reason)).toEqual({ cardNumber: PAN, ccv: CCV });
    const row = await db().provider.findUniqueOrThrow({ where: { id: provider.id } });
    const stored = {
      keyId: String(row.credentialsKeyId),
      wrappedKey: Buffer.from(row.credentialsKey ?? []),
      ciphertext: Buffer.from(row.credentials ?? []),
    };
    expect(open(stored, aad, k2Only)).toBe('{"password":"p"}');
    await expect(vault().readCard(owner(), id, reason)).rejects.toThrow(/k2 is not in the keyring/);
  });
});
