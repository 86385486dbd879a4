/**
 * Failed sign-ins counted per key (an email, an IP address) in a fixed window, in this process's
 * memory: enough to stop guessing through one gateway; a shared store would be needed to count
 * across several.
 */
export function createFailureCounter({ limit, windowMs }: { limit: number; windowMs: number }) {
  const failures = new Map<string, { count: number; resetAt: number }>();
  return {
    blocked(key: string, now: number): boolean {
      const entry = failures.get(key);
      return entry !== undefined && entry.resetAt > now && entry.count >= limit;
    },
    fail(key: string, now: number): void {
      const entry = failures.get(key);
      if (entry && entry.resetAt > now) entry.count += 1;
      else {
        if (failures.size >= 10_000) failures.clear();
        failures.set(key, { count: 1, resetAt: now + windowMs });
      }
    },
    reset(key: string): void {
      failures.delete(key);
    },
  };
}
