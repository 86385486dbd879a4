import { describe, expect, it } from 'vitest';
import { deliveryLane, FAILING_AFTER, pauseMs } from './delivery';

describe('a failing endpoint', () => {
  it('is not paused before its 5th failed attempt in a row, then 30 s doubling up to an hour', () => {
    expect(FAILING_AFTER).toBe(5);
    expect([1, 4, 5, 6, 7, 11, 12, 50].map(pauseMs)).toEqual([0, 0, 30_000, 60_000, 120_000, 1_920_000, 3_600_000, 3_600_000]);
  });
});

describe('the delivery lane', () => {
  it('lets an account hold at most half its slots, an endpoint 4', () => {
    expect(deliveryLane()).toEqual({ queues: ['webhook.deliver'], concurrency: 16, caps: { perGroup: 8, perTarget: 4 } });
    expect(deliveryLane(1).caps).toEqual({ perGroup: 1, perTarget: 4 });
  });
});
