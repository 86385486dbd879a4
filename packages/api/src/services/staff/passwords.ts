import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { RateLimited } from '../limits';

/**
 * Staff passwords are hashed with scrypt (Node's own, no native dependency) at OWASP's
 * recommended cost, with a random salt. The hash string carries its parameters, so the cost can
 * be raised later without breaking existing hashes: `scrypt$N$r$p$salt$hash` (base64url).
 */
const COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** Refuse stored parameters beyond this: a corrupted row must not make a sign-in eat the memory. */
const MAX_N = 2 ** 20;

/**
 * Password checks waiting for their turn at most: each takes a fraction of a second, so past this
 * a flood of guesses would hold every real sign-in for seconds; further checks get a 429 instead.
 */
export const MAX_WAITING_CHECKS = 16;
const RETRY_AFTER_SECONDS = 5;

/** Runs the tasks given to it one after the other, each once the previous one has settled. */
export function oneAtATime() {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = previous.then(task, task);
    previous = result.catch(() => undefined);
    return result;
  };
}

/**
 * One derivation at a time (128 MB and most of a core each): however many sign-ins arrive
 * together, the others wait their turn instead of taking the machine's memory and CPU.
 */
const inTurn = oneAtATime();

function derive(password: string, salt: Buffer, { N, r, p }: typeof COST): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let checksWaiting = 0;

/**
 * Constant-time comparison; a malformed hash never matches. Throws RateLimited (429) when
 * MAX_WAITING_CHECKS checks are already waiting.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !expected || ![cost.N, cost.r, cost.p].every(Number.isInteger) || cost.N > MAX_N) return false;
  if (checksWaiting >= MAX_WAITING_CHECKS) throw new RateLimited(RETRY_AFTER_SECONDS, 'Too many sign-ins at once: try again shortly');
  checksWaiting += 1;
  const key = await derive(password, Buffer.from(salt, 'base64url'), cost).finally(() => (checksWaiting -= 1));
  const wanted = Buffer.from(expected, 'base64url');
  return key.length === wanted.length && timingSafeEqual(key, wanted);
}
