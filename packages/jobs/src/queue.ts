import { newId, type Clock } from '@gateway/core';
import { Prisma, type Db } from '@gateway/db';
import { at } from './claim';

export interface EnqueueOptions {
  /** Not before this time (the clock's now by default). */
  runAt?: Date;
  /**
   * At most one job ever carries this key (the row keeps it after the job finished): enqueueing
   * again returns the existing job's id and changes nothing (see `advance`).
   */
  dedupeKey?: string;
  /**
   * With `dedupeKey`: a job of that key that is pending and has never run is moved to `runAt` when
   * that is sooner, instead of left unchanged (to bring forward a job enqueued for later). One
   * waiting for its retry keeps its backoff.
   */
  advance?: boolean;
  /** Runs before the job fails for good (the table's default, 10, when absent). */
  maxAttempts?: number;
  /** For a lane that claims fairly: whose job this is (an account)… */
  group?: string;
  /** …and what it uses (an endpoint). */
  target?: string;
  /** The caller's interactive transaction: the job exists only if that transaction commits. */
  tx?: Prisma.TransactionClient;
}

export interface JobQueue {
  /** Returns the job's id. */
  enqueue(queue: string, payload: Prisma.InputJsonValue, opts?: EnqueueOptions): Promise<string>;
  /** Removes the job with this key unless it is running or finished; true when one was removed. */
  cancel(dedupeKey: string, opts?: { tx?: Prisma.TransactionClient }): Promise<boolean>;
  /** Moves the pending jobs of `target` due before `until` to `until` (a target that backs off); returns how many. */
  postpone(target: string, until: Date, opts?: { tx?: Prisma.TransactionClient }): Promise<number>;
  /** Makes the job with this key due now if it is pending and has never run (one waiting for a retry keeps its backoff); true when moved. */
  bringForward(dedupeKey: string): Promise<boolean>;
}

export function createJobQueue({ db, clock }: { db: Db; clock: Clock }): JobQueue {
  async function enqueue(queue: string, payload: Prisma.InputJsonValue, opts: EnqueueOptions = {}): Promise<string> {
    if (opts.maxAttempts !== undefined && !(Number.isInteger(opts.maxAttempts) && opts.maxAttempts >= 1)) {
      throw new RangeError(`maxAttempts must be a whole number from 1, not ${opts.maxAttempts}`);
    }
    const sql = opts.tx ?? db;
    const now = clock.now();
    // ON CONFLICT, unlike a failed INSERT, leaves the caller's transaction usable.
    const onConflict = opts.advance
      ? Prisma.sql`DO UPDATE SET "runAt" = EXCLUDED."runAt" WHERE "Job"."status" = 'PENDING' AND "Job"."attempts" = 0 AND "Job"."runAt" > EXCLUDED."runAt"`
      : Prisma.sql`DO NOTHING`;
    const inserted = await sql.$queryRaw<{ id: string }[]>`
      INSERT INTO "Job" ("id", "queue", "payload", "runAt", "maxAttempts", "dedupeKey", "groupKey", "targetKey", "createdAt")
      VALUES (${newId()}, ${queue}, ${JSON.stringify(payload)}::jsonb, ${at(opts.runAt ?? now)},
              ${opts.maxAttempts ?? Prisma.sql`DEFAULT`}, ${opts.dedupeKey ?? null}, ${opts.group ?? ''}, ${opts.target ?? ''},
              ${at(now)})
      ON CONFLICT ("dedupeKey") ${onConflict}
      RETURNING "id"`;
    if (inserted[0]) return inserted[0].id;
    const [existing] = await sql.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Job" WHERE "dedupeKey" = ${opts.dedupeKey}`;
    // Missing only when the holder of the key was cancelled in between: the key is free again.
    return existing ? existing.id : enqueue(queue, payload, opts);
  }

  async function cancel(dedupeKey: string, opts: { tx?: Prisma.TransactionClient } = {}): Promise<boolean> {
    const deleted = await (opts.tx ?? db).$executeRaw`
      DELETE FROM "Job" WHERE "dedupeKey" = ${dedupeKey} AND "status" = 'PENDING'`;
    return deleted === 1;
  }

  async function postpone(target: string, until: Date, opts: { tx?: Prisma.TransactionClient } = {}): Promise<number> {
    return (opts.tx ?? db).$executeRaw`
      UPDATE "Job" SET "runAt" = ${at(until)}
      WHERE "targetKey" = ${target} AND "status" = 'PENDING' AND "runAt" < ${at(until)}`;
  }

  async function bringForward(dedupeKey: string): Promise<boolean> {
    const now = at(clock.now());
    const moved = await db.$executeRaw`
      UPDATE "Job" SET "runAt" = ${now} WHERE "dedupeKey" = ${dedupeKey} AND "status" = 'PENDING' AND "attempts" = 0 AND "runAt" > ${now}`;
    return moved === 1;
  }

  return { enqueue, cancel, postpone, bringForward };
}
