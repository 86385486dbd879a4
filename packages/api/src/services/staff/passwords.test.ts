import { describe, expect, it } from 'vitest';
import { hashPassword, oneAtATime, verifyPassword } from './passwords';

describe('staff passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horse!', hash)).toBe(false);
    expect(await verifyPassword('correct horse', 'scrypt$4194304$8$1$c2FsdA$a2V5')).toBe(false);
  });

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
});
