import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RateLimited } from '../limits';
import { hashPassword, MAX_WAITING_CHECKS, oneAtATime, verifyPassword } from './passwords';

describe('staff passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horse!', hash)).toBe(false);
    expect(await verifyPassword('correct horse', 'scrypt$4194304$8$1$c2FsdA$a2V5')).toBe(false);
    // Three scrypt runs of 128 MiB each: over 5 s on a loaded 2-core CI machine, and a run cut short
    // there kept the password queue busy for the next test.
  }, 60_000);

  it('runs password work one task at a time, in order, even after a failure', async () => {
    const inTurn = oneAtATime();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([inTurn(task('a')), inTurn(task('b', true)), inTurn(task('c'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('refuses a check with a 429 (code 35, Retry-After) while the most allowed already wait, then checks again', async () => {
    // A cheap hash (its cost is in the hash), so that the test is quick.
    const hash = `scrypt$1024$8$1$c2FsdHNhbHQ$${scryptSync('pw', Buffer.from('saltsalt'), 32, { N: 1024, r: 8, p: 1 }).toString('base64url')}`;
    const results = await Promise.allSettled(Array.from({ length: MAX_WAITING_CHECKS + 5 }, () => verifyPassword('pw', hash)));
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual(Array(MAX_WAITING_CHECKS).fill(true));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(RateLimited);
      expect(error).toMatchObject({ code: 35, http: 429, retryAfterSeconds: 5 });
    }
    expect(await verifyPassword('pw', hash)).toBe(true);
  });
});
