import { newId, type Clock } from '@gateway/core';
import { Prisma, type Db } from '@gateway/db';
import { at } from './claim';

export interface EnqueueOptions {
  /** Not before this time (the clock's now by default). */
  runAt?: Date;
  /**
   * At most one job ever carries this key (the row keeps it after the job finished): enqueueing
   * again returns the existing job's id and changes nothing.
   */
  dedupeKey?: string;
  /** Runs before the job fails for good (the table's default, 10, when absent). */
  maxAttempts?: number;
  /** The caller's interactive transaction: the job exists only if that transaction commits. */
  tx?: Prisma.TransactionClient;
}

export interface JobQueue {
  /** Returns the job's id. */
  enqueue(queue: string, payload: Prisma.InputJsonValue, opts?: EnqueueOptions): Promise<string>;
  /** Removes the job with this key unless it is running or finished; true when one was removed. */
  cancel(dedupeKey: string, opts?: { tx?: Prisma.TransactionClient }): Promise<boolean>;
}

export function createJobQueue({ db, clock }: { db: Db; clock: Clock }): JobQueue {
  async function enqueue(queue: string, payload: Prisma.InputJsonValue, opts: EnqueueOptions = {}): Promise<string> {
    if (opts.maxAttempts !== undefined && !(Number.isInteger(opts.maxAttempts) && opts.maxAttempts >= 1)) {
      throw new RangeError(`maxAttempts must be a whole number from 1, not ${opts.maxAttempts}`);
    }
    const sql = opts.tx ?? db;
    const now = clock.now();
    // ON CONFLICT DO NOTHING, unlike a failed INSERT, leaves the caller's transaction usable.
    const inserted = await sql.$queryRaw<{ id: string }[]>`
      INSERT INTO "Job" ("id", "queue", "payload", "runAt", "maxAttempts", "dedupeKey", "createdAt")
      VALUES (${newId()}, ${queue}, ${JSON.stringify(payload)}::jsonb, ${at(opts.runAt ?? now)},
              ${opts.maxAttempts ?? Prisma.sql`DEFAULT`}, ${opts.dedupeKey ?? null}, ${at(now)})
      ON CONFLICT ("dedupeKey") DO NOTHING
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

  return { enqueue, cancel };
}
