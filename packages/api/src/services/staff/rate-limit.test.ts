import { describe, expect, it } from 'vitest';
import { createAttemptCounter } from './rate-limit';

describe('attempt counter', () => {
  it('blocks a key at its limit until its window ends, and forgets it on reset', () => {
    const counter = createAttemptCounter({ limit: 2, windowMs: 1000 });
    counter.count('ann', 0);
    expect(counter.blocked('ann', 0)).toBe(false);
    counter.count('ann', 10);
    expect(counter.blocked('ann', 10)).toBe(true);
    expect(counter.blocked('bob', 10)).toBe(false);
    expect(counter.blocked('ann', 999)).toBe(true);
    expect(counter.blocked('ann', 1000)).toBe(false);
    counter.count('ann', 1000);
    expect(counter.blocked('ann', 1000)).toBe(false);
    counter.count('ann', 1001);
    counter.reset('ann');
    expect(counter.blocked('ann', 1001)).toBe(false);
  });

  it('when full, forgets the key whose window ends first, not every key', () => {
    const counter = createAttemptCounter({ limit: 1, windowMs: 60_000 });
    counter.count('first', 0);
    counter.count('blocked', 1);
    for (let i = 0; i < 9_998; i += 1) counter.count(`filler ${i}`, 2);
    counter.count('first', 60_000); // a new window: now the newest
    counter.count('one more', 60_000);
    expect(counter.blocked('blocked', 60_000)).toBe(false); // forgotten: its window was the oldest
    expect(counter.blocked('first', 60_000)).toBe(true);
    expect(counter.blocked('filler 0', 60_000)).toBe(true);
    expect(counter.blocked('one more', 60_000)).toBe(true);
  });
});
