import { expect, it } from 'vitest';
import { retryDelayMs } from './backoff';

it('doubles from 10 s up to 6 h, keeping a random half to all of each delay', () => {
  const hour = 3_600_000;
  expect([1, 2, 3, 9].map((attempt) => retryDelayMs(attempt, () => 1))).toEqual([10_000, 20_000, 40_000, 2_560_000]);
  expect([1, 2, 3, 9].map((attempt) => retryDelayMs(attempt, () => 0))).toEqual([5_000, 10_000, 20_000, 1_280_000]);
  expect(retryDelayMs(13, () => 1)).toBe(6 * hour);
  expect(retryDelayMs(50, () => 0)).toBe(3 * hour);
});
