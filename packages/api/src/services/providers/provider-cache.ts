import type { Db, Prisma, Provider, ProviderFee } from '@gateway/db';

export type ProviderWithFees = Provider & { fees: ProviderFee[] };

/** What reads providers: the database client, or a transaction's (never cached). */
export type ProviderReader = Db | Prisma.TransactionClient;

/** The channel a database trigger notifies on every change of a provider or its fees (migration perf_provider_change_notices). */
export const PROVIDER_CHANGES = 'gateway_provider_changes';

/** What tells the cache of changes: the database's LISTEN (packages/db `Database.listen`). */
export interface ChangeNotices {
  listen(channel: string, listener: { notified(payload: string): void; listening(): void; lost(error: Error): void }): void;
}

/** Accounts whose providers are kept; past this many the cache starts again empty. */
const MAX_ACCOUNTS = 10_000;

interface Cache {
  accounts: Map<string, readonly ProviderWithFees[]>;
  /** Counts changes: a read that started before one is not kept. */
  generation: number;
  /** Only while notices arrive is anything kept. */
  listening: boolean;
}

// Keyed by the database client, so that the many callers of requireProvider(db, …) need no new
// argument: a client whose changes are heard (cacheProviders) is cached, any other (a transaction's) is not.
const caches = new WeakMap<ProviderReader, Cache>();

function forget(cache: Cache) {
  cache.generation += 1;
  cache.accounts.clear();
}

/**
 * Keeps each account's active providers with their fees in memory, for every process reads them
 * for every charge. A change made anywhere (this process, another gateway process, SQL by hand)
 * reaches every process by a notification within milliseconds; while this process cannot hear
 * notifications (its LISTEN connection failed), nothing is kept and every read goes to the
 * database. docs/decisions.md, "Providers kept in memory".
 */
export function cacheProviders(db: Db, notices: ChangeNotices, onLost: (error: Error) => void = () => undefined): void {
  const cache: Cache = { accounts: new Map(), generation: 0, listening: false };
  caches.set(db, cache);
  notices.listen(PROVIDER_CHANGES, {
    notified: () => forget(cache),
    listening() {
      forget(cache);
      cache.listening = true;
    },
    lost(error) {
      cache.listening = false;
      forget(cache);
      onLost(error);
    },
  });
}

/** After this process changed a provider: its next read must see the change (the notification may come later). */
export function forgetProviders(db: Db): void {
  const cache = caches.get(db);
  if (cache) forget(cache);
}

/** The account's active providers with their fees, oldest first (shared and frozen when cached: never change them). */
export async function activeProviders(db: ProviderReader, accountId: string): Promise<readonly ProviderWithFees[]> {
  const cache = caches.get(db);
  const kept = cache?.listening ? cache.accounts.get(accountId) : undefined;
  if (kept) return kept;
  const generation = cache?.generation;
  const providers = await db.provider.findMany({
    where: { accountId, dateRemoved: null },
    include: { fees: true },
    orderBy: [{ dateAdded: 'asc' }, { id: 'asc' }],
  });
  if (!cache?.listening || cache.generation !== generation) return providers;
  for (const provider of providers) {
    for (const fee of provider.fees) Object.freeze(fee);
    Object.freeze(provider.fees);
    Object.freeze(provider);
  }
  if (cache.accounts.size >= MAX_ACCOUNTS) cache.accounts.clear();
  cache.accounts.set(accountId, Object.freeze(providers));
  return providers;
}
