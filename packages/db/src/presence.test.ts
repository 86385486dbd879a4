import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database';
import { reachableBackends, TEST_SERVER_URL } from './test-server';

/** A throwaway database on the test server, dropped with `drop`. */
async function throwaway() {
  const name = `presence_test_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe.each(await reachableBackends([{ backend: 'PostgreSQL' as const }]))('presence on $backend', () => {
  it('tells a live process from one whose connection is gone, at once', async () => {
    const server = await throwaway();
    const opened: Database[] = [];
    try {
      const [mine, theirs] = [await openDatabase({ url: server.url, poolSize: 1 }), await openDatabase({ url: server.url, poolSize: 1 })];
      opened.push(mine, theirs);
      const them = theirs.presence();
      const me = mine.presence();
      expect(me.number).not.toBe(them.number);
      await expect.poll(() => me.isPresent(them.number), { timeout: 5_000, interval: 20 }).toBe(true);
      expect(await me.isPresent(me.number)).toBe(true);
      // Another database's lock of the same number is not this database's process.
      const elsewhere = await throwaway();
      const other = await openDatabase({ url: elsewhere.url, poolSize: 1 });
      opened.push(other);
      expect(await other.presence().isPresent(them.number)).toBe(false);
      await other.close();
      await elsewhere.drop();

      // The process is gone the moment its connection is: its server session ends with it.
      await theirs.close();
      await expect.poll(() => me.isPresent(them.number), { timeout: 2_000, interval: 20 }).toBe(false);
    } finally {
      for (const database of opened.splice(0)) await database.close().catch(() => undefined);
      await server.drop();
    }
  });
});

describe('presence on PGlite', () => {
  it('holds the one process of its folder, and no other', async () => {
    const database = await openDatabase({});
    try {
      const me = database.presence();
      expect(await me.isPresent(me.number)).toBe(true);
      expect(await me.isPresent(me.number + 1)).toBe(false);
    } finally {
      await database.close();
    }
  });
});
