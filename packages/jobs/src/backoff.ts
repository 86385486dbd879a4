const BASE_MS = 10_000;
const CAP_MS = 6 * 60 * 60 * 1000;

/**
 * How long to wait before trying a job again after its `attempt`-th attempt failed:
 * 10 s × 2^(attempt − 1), capped at 6 h, then scaled by a random factor in [0.5, 1) so that jobs
 * that failed together (a provider outage) do not all come back in the same instant.
 *
 * attempt  1: 5–10 s    4: 40–80 s     7: 5.3–10.7 min   10: 43–85 min   13+: 3–6 h
 *          2: 10–20 s   5: 80–160 s    8: 10.7–21 min    11: 1.4–2.8 h
 *          3: 20–40 s   6: 2.7–5.3 min 9: 21–43 min      12: 2.8–5.7 h
 * With the default 10 attempts, the last one comes 43–85 min after the first.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(BASE_MS * 2 ** (attempt - 1), CAP_MS);
  return Math.round(exponential * (0.5 + random() / 2));
}
