import { createHmac } from 'node:crypto';
import { ApiError, ERROR_NAMES, newId, type ErrorName } from '@gateway/core';
import type { Account, Db, IdempotencyKey, Prisma, Presence } from '@gateway/db';
import type { Dependencies } from './deps';
import { UnconfirmedOutcome } from './providers/connectors';
import { deleteInBatches } from './prune';

/**
 * Idempotency-Key handling for the operations that create or move money. A key lives like this
 * (docs/architecture.md, "An Idempotency-Key's life"):
 *
 * - **claimed**: the first request with the key inserts it (only one concurrent request can), held
 *   by that request (`holder`) in its process (`holderProcess`, the process's presence lock), with
 *   the id of what it will create (`resourceId`).
 * - **bound**: what the request creates (the charge written PROCESSING, the refund reservation, the
 *   capture lease, the customer, the batch…) binds the key to it in the same transaction
 *   (`bindKey`), and only while the request still holds it. A bound key is never released.
 * - **answered**: the request's answer is stored (a refusal too); after a crash, or a server error,
 *   the answer is taken from the resource once it is settled (by the request, or by the recovery
 *   that reverses or completes it), exactly as the request would have answered, and stored then.
 * - **forgotten**: answered keys are deleted after the retention (GATEWAY_IDEMPOTENCY_RETENTION_HOURS).
 *
 * A repeat with the same body gets the stored answer; with another body, 422; while the first is
 * running, or its resource is still being settled, 409 with Retry-After. A key whose request
 * created nothing is released at once when the request fails with a server error, or when a repeat
 * finds its process dead (the repeat takes it over: the dead request could no longer bind it).
 *
 * The fingerprint is an HMAC under a key derived from the master keyring, never a plain hash: a
 * request body holds card data, and a plain hash of it could be brute-forced from the masked card.
 */

/** The key a running request holds: what it creates binds the key in the creating transaction (`bindKey`). */
export interface HeldKey {
  accountId: string;
  key: string;
  holder: string;
  /**
   * The id of what the request creates (a charge, a payment method…), chosen when the key was
   * first claimed and kept when a repeat takes it over: provider calls made before the first write
   * (a card stored, a PayTo agreement) are made again with the same provider keys, and answered as
   * the first time.
   */
  resourceId: string;
}

/**
 * What a request made with a key can create, by the name its key keeps: what it is, and so how the
 * key is answered from it (a payment of a payment link is a charge, answered as the link's payment).
 */
export type KeyedResource =
  | 'charge'
  | 'payment-link-payment'
  | 'refund'
  | 'capture'
  | 'void'
  | 'customer'
  | 'payment-method'
  | 'token'
  | 'vault-item'
  | 'provider'
  | 'payment-link'
  | 'webhook-subscription'
  | 'subscription'
  | 'batch';

/** What a key is bound to. */
export interface KeyResource {
  type: KeyedResource;
  id: string;
}

/** What a bound key answers: its resource's outcome, once settled. */
export type KeyAnswer<Data = unknown> = { data: Data } | { error: ApiError } | 'pending';

/**
 * How a bound key is answered from its resource, per resource type, exactly as the request that
 * created it answers. `abandoned`: the request's process is gone, so whatever settles the resource
 * in the background may be brought forward.
 */
export type KeyAnswers = Record<KeyedResource, (account: Account, id: string, abandoned: boolean) => Promise<KeyAnswer>>;

type Claim = { kind: 'new'; held: HeldKey } | { kind: 'replay'; data?: unknown; error?: ApiError };

interface StoredError {
  name: ErrorName;
  message: string;
  http: number;
  retryable: boolean;
  details?: Record<string, string>;
  gatewayCode?: string;
  gatewayMessage?: string;
}

type StoredResponse = { data: unknown } | { error: StoredError };

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Answered keys are kept for a day by default, as payment APIs commonly do. */
export const DEFAULT_IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
const PRUNE_BATCH = 1_000;
/**
 * A key claimed this long ago and still not bound: its request failed to release it (the database
 * failed it then), as no request runs this long before its first write. Released: the request can
 * no longer bind it, so nothing can be created under it any more.
 */
const UNBOUND_RELEASE_MS = 5 * 60_000;
/** Bound keys whose answer the sweep looks for at each run (they exist only after a crash or a server error). */
const ANSWER_BATCH = 100;
/** When a repeat should come back: its first request is running, or its resource is being settled. */
const RETRY_AFTER_SECONDS = { running: 1, settling: 5 };

/** Without a database presence (tests of services alone) every process counts as alive: no key is taken over. */
const ALWAYS_PRESENT: Presence = { number: 0, isPresent: async () => true };

function fingerprint(masterKey: Buffer, request: { method: string; path: string }, input: unknown): string {
  const key = createHmac('sha256', masterKey).update('idempotency fingerprint').digest();
  return createHmac('sha256', key)
    .update(`${request.method} ${request.path.toLowerCase().replace(/\/+$/, '')}\n${stableJson(input)}`)
    .digest('hex');
}

function toStored(error: ApiError): StoredError {
  const { errorName: name, message, http, retryable, details, gatewayCode, gatewayMessage } = error;
  return { name, message, http, retryable, details, gatewayCode, gatewayMessage };
}

function fromStored(stored: StoredError): ApiError {
  const name = ERROR_NAMES.includes(stored.name) ? stored.name : 'UnknownError';
  return new ApiError(name, stored);
}

const stored = (answer: Exclude<KeyAnswer, 'pending'>): StoredResponse =>
  'error' in answer ? { error: toStored(answer.error) } : { data: answer.data };

/** The answer a stored response gives, as the request gave it (data through JSON, as it went out). */
function replayOf(response: StoredResponse): Claim {
  return 'error' in response ? { kind: 'replay', error: fromStored(response.error) } : { kind: 'replay', data: response.data };
}

/**
 * An error that is not the request's outcome: a server error, an outcome the provider did not make
 * known (confirmed in the background), or a conflict with something in progress (409: the same
 * request may succeed later). The key waits for its resource, or is released when it has none.
 */
const unsettled = (error: ApiError) => error.http >= 500 || error.http === 409 || error instanceof UnconfirmedOutcome;

const inProgress = (message: string, retryAfterSeconds: number) =>
  new ApiError('Duplicate', { http: 409, retryable: true, message, retryAfterSeconds });

/**
 * Binds the key a request holds to what it creates, in the transaction that creates it (nothing
 * without a key). Throws, so that the transaction rolls back, when the request no longer holds it:
 * a repeat took it over, its process having been seen dead.
 */
export async function bindKey(tx: Prisma.TransactionClient, held: HeldKey | undefined, resource: KeyResource): Promise<void> {
  if (!held) return;
  const { sql, values } = bindKeyStatement(held, resource, 1);
  if ((await tx.$executeRawUnsafe(sql, ...values)) !== 1) throw keyTakenOver();
}

/**
 * Runs a create and binds the key to what it made, in one transaction (without a key, the create
 * alone): for the services whose create is one transaction.
 */
export function createKeyed<T extends { id: string }>(
  db: Db,
  heldKey: HeldKey | undefined,
  type: KeyedResource,
  create: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  if (!heldKey) return create(db);
  return db.$transaction(async (tx) => {
    const made = await create(tx);
    await bindKey(tx, heldKey, { type, id: made.id });
    return made;
  });
}

/** The request lost its key to a repeat (it was thought dead): it must create nothing; the repeat answers. */
export const keyTakenOver = () => inProgress('A request with this Idempotency-Key is in progress', RETRY_AFTER_SECONDS.running);

/**
 * The statement that binds a key, for a caller that makes it part of its own statement (a charge's
 * insert, services/charges/statements.ts): `$n` placeholders from `first`.
 */
export function bindKeyStatement(held: HeldKey, resource: KeyResource, first: number) {
  return {
    sql: `UPDATE "IdempotencyKey" SET "resourceType" = $${first}, "resourceId" = $${first + 1}
      WHERE "accountId" = $${first + 2} AND "key" = $${first + 3} AND "holder" = $${first + 4} AND "resourceType" IS NULL
      RETURNING 1`,
    values: [resource.type, resource.id, held.accountId, held.key, held.holder],
  };
}

export function createIdempotencyService({ db, clock, config, logger, presence = ALWAYS_PRESENT }: Dependencies, answers: KeyAnswers) {
  const { keyring } = config;
  const current = (request: { method: string; path: string }, input: unknown) =>
    fingerprint(keyring.keys.get(keyring.currentKeyId) ?? Buffer.alloc(0), request, input);
  /** A key claimed before a master-key rotation still matches the same request. */
  const matches = (stored: string, request: { method: string; path: string }, input: unknown) =>
    [...keyring.keys.values()].some((key) => fingerprint(key, request, input) === stored);
  const keyOf = (row: Pick<IdempotencyKey, 'accountId' | 'key'>) => ({ accountId_key: { accountId: row.accountId, key: row.key } });

  /** Stores an answer in a key still unanswered (`where` narrows which: its holder's, or any). */
  async function store(where: Prisma.IdempotencyKeyWhereInput, outcome: Exclude<KeyAnswer, 'pending'>): Promise<StoredResponse> {
    const response = stored(outcome);
    await db.idempotencyKey.updateMany({
      where: { ...where, state: 'IN_PROGRESS' },
      data: {
        state: 'COMPLETED',
        responseStatus: 'error' in outcome ? outcome.error.http : 200,
        responseBody: response as unknown as Prisma.InputJsonValue,
        answeredAt: clock.now(),
      },
    });
    return response;
  }

  /** The answer of a bound key from its resource, stored once settled. */
  async function answerBound(account: Account, row: IdempotencyKey, abandoned: boolean): Promise<StoredResponse | undefined> {
    const outcome = await answers[row.resourceType as KeyedResource](account, row.resourceId ?? '', abandoned);
    // A concurrent repeat may store the same answer: whichever is first, it is the same.
    return outcome === 'pending' ? undefined : store({ accountId: row.accountId, key: row.key }, outcome);
  }

  /** Whether the process of a key's holder is gone: never this process (it knows it lives, even while its presence is being taken again). */
  const abandonedBy = async (row: IdempotencyKey) =>
    row.holderProcess !== null && row.holderProcess !== presence.number && !(await presence.isPresent(row.holderProcess));
  /** Where the sweep's next run of bound keys starts (the oldest again after a run that reached the end). */
  let answerCursor: Date | undefined;

  async function claim(account: Account, key: string, request: { method: string; path: string }, input: unknown): Promise<Claim> {
    if (key.length > 255) throw new ApiError('ValidationError', { details: { 'Idempotency-Key': 'At most 255 characters' } });
    const print = current(request, input);
    const held: HeldKey = { accountId: account.id, key, holder: newId(), resourceId: newId() };
    const holding = { holder: held.holder, holderProcess: presence.number, createdAt: clock.now() };
    const { count } = await db.idempotencyKey.createMany({
      data: [{ accountId: account.id, key, fingerprint: print, state: 'IN_PROGRESS', resourceId: held.resourceId, ...holding }],
      skipDuplicates: true,
    });
    if (count === 1) return { kind: 'new', held };

    const existing = await db.idempotencyKey.findUnique({ where: keyOf(held) });
    if (!existing) return claim(account, key, request, input); // forgotten or released meanwhile
    if (existing.fingerprint !== print && !matches(existing.fingerprint, request, input)) {
      throw new ApiError('Duplicate', { http: 422, message: 'This Idempotency-Key was already used with a different request' });
    }
    if (existing.state === 'COMPLETED') return replayOf(existing.responseBody as unknown as StoredResponse);

    const abandoned = await abandonedBy(existing);
    if (existing.resourceType) {
      const response = await answerBound(account, existing, abandoned);
      if (response) return replayOf(response);
      throw inProgress(
        'What the request with this Idempotency-Key started is still being settled: repeat it later for its outcome',
        RETRY_AFTER_SECONDS.settling,
      );
    }
    if (!abandoned) throw inProgress('A request with this Idempotency-Key is in progress', RETRY_AFTER_SECONDS.running);
    // Its request died before it created anything: this one takes the key over (the dead one could
    // no longer bind it), to create what it would have, with the same id.
    const { count: taken } = await db.idempotencyKey.updateMany({
      where: { accountId: account.id, key, holder: existing.holder, resourceType: null, state: 'IN_PROGRESS' },
      data: holding,
    });
    if (taken !== 1) return claim(account, key, request, input);
    logger.info({ accountId: account.id, holderProcess: existing.holderProcess }, 'idempotency key taken over from a dead process');
    return { kind: 'new', held: { ...held, resourceId: existing.resourceId ?? held.resourceId } };
  }

  return {
    claim,

    /**
     * Stores the request's answer. After an error that is not its outcome (`unsettled`), a key its
     * request bound waits for its resource to settle (answered then, from it), and one it did not
     * is released at once.
     */
    async settle(held: HeldKey, outcome: { data: unknown } | { error: ApiError }): Promise<void> {
      const mine = { accountId: held.accountId, key: held.key, holder: held.holder };
      if ('error' in outcome && unsettled(outcome.error)) {
        await db.idempotencyKey.deleteMany({ where: { ...mine, state: 'IN_PROGRESS', resourceType: null } });
        return;
      }
      await store(mine, outcome);
    },

    /**
     * Answers bound keys whose resource has settled since (after a crash or a server error), so that
     * they are forgotten in their turn; releases keys claimed long ago and never bound (a request
     * that could not release its own); forgets answered keys after their retention. In batches.
     */
    async sweep(): Promise<number> {
      const now = clock.now().getTime();
      const retainMs = config.retention?.idempotencyKeysMs ?? DEFAULT_IDEMPOTENCY_RETENTION_MS;
      // A batch at a time, from where the last run stopped: keys whose resource stays unsettled
      // for long (a debit, a reversal the provider does not confirm) never hold up the others.
      const bound = await db.idempotencyKey.findMany({
        where: { state: 'IN_PROGRESS', resourceType: { not: null }, ...(answerCursor && { createdAt: { gt: answerCursor } }) },
        include: { account: true },
        orderBy: { createdAt: 'asc' },
        take: ANSWER_BATCH,
      });
      answerCursor = bound.length === ANSWER_BATCH ? bound.at(-1)?.createdAt : undefined;
      let changed = 0;
      for (const row of bound) {
        try {
          if (await answerBound(row.account, row, await abandonedBy(row))) changed += 1;
        } catch (error) {
          // One key that cannot be answered (its resource unreadable) leaves the rest to be answered.
          logger.error({ err: error, accountId: row.accountId, resourceType: row.resourceType }, 'idempotency key not answered');
        }
      }
      // The outer conditions are checked again on a row another transaction changed meanwhile (a
      // key bound while this statement waited for it is kept); the subquery's alone would not be.
      const before = (ms: number) => new Date(now - ms).toISOString();
      const released = await deleteInBatches(
        PRUNE_BATCH,
        (limit) => db.$executeRaw`
          DELETE FROM "IdempotencyKey" WHERE "state" = 'IN_PROGRESS' AND "resourceType" IS NULL AND ("accountId", "key") IN (
            SELECT "accountId", "key" FROM "IdempotencyKey"
            WHERE "state" = 'IN_PROGRESS' AND "resourceType" IS NULL AND "createdAt" < ${before(UNBOUND_RELEASE_MS)}::timestamptz
            LIMIT ${limit})`,
      );
      const forgotten = await deleteInBatches(
        PRUNE_BATCH,
        (limit) => db.$executeRaw`
          DELETE FROM "IdempotencyKey" WHERE "state" = 'COMPLETED' AND ("accountId", "key") IN (
            SELECT "accountId", "key" FROM "IdempotencyKey"
            WHERE "state" = 'COMPLETED' AND "answeredAt" < ${before(retainMs)}::timestamptz
            LIMIT ${limit})`,
      );
      return changed + released + forgotten;
    },
  };
}
