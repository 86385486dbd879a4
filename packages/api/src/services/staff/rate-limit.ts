/** Keys remembered at most; beyond, the one whose window ends first is forgotten. */
const MAX_KEYS = 10_000;

/**
 * Attempts counted per key (an email; "all") in a fixed window, in this process's memory: enough
 * to stop guessing through one gateway; a shared store would be needed to count across several.
 * An attempt is counted before it is checked, so concurrent attempts cannot slip past the limit.
 */
export function createAttemptCounter({ limit, windowMs }: { limit: number; windowMs: number }) {
  // In the order their windows started, hence end: the first is the oldest.
  const attempts = new Map<string, { count: number; resetAt: number }>();
  return {
    blocked(key: string, now: number): boolean {
      const entry = attempts.get(key);
      return entry !== undefined && entry.resetAt > now && entry.count >= limit;
    },
    count(key: string, now: number): void {
      const entry = attempts.get(key);
      if (entry && entry.resetAt > now) {
        entry.count += 1;
        return;
      }
      attempts.delete(key);
      if (attempts.size >= MAX_KEYS) attempts.delete(attempts.keys().next().value as string);
      attempts.set(key, { count: 1, resetAt: now + windowMs });
    },
    reset(key: string): void {
      attempts.delete(key);
    },
  };
}
