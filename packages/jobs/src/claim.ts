import { Prisma, type Db } from '@gateway/db';

type Sql = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;

/** A job this worker holds: `attempts` went up by one when it was claimed and fences every write below. */
export interface ClaimedJob {
  id: string;
  queue: string;
  payload: Prisma.JsonValue;
  attempts: number;
  maxAttempts: number;
}

export type Outcome =
  | { status: 'SUCCEEDED'; at: Date }
  | { status: 'FAILED'; at: Date; error: string }
  | { status: 'PENDING'; runAt: Date; error: string };

/**
 * A time as SQL. ISO text with its zone reads the same through both adapters and under any server
 * time zone; times always come from the injected clock, never from SQL now().
 */
export const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamptz`;

/**
 * Takes up to `limit` due jobs of `queues` in one statement: pending ones whose time has come, and
 * running ones whose lease expired because their worker died. SKIP LOCKED lets concurrent workers
 * pass over each other's candidates instead of waiting for them.
 */
export function claimJobs(
  db: Db,
  claim: { queues: string[]; limit: number; workerId: string; now: Date; lockedUntil: Date },
): Promise<ClaimedJob[]> {
  return db.$queryRaw<ClaimedJob[]>`
    WITH due AS MATERIALIZED (
      SELECT "id" FROM "Job"
      WHERE "queue" IN (${Prisma.join(claim.queues)})
        AND (("status" = 'PENDING' AND "runAt" <= ${at(claim.now)})
          OR ("status" = 'RUNNING' AND "lockedUntil" <= ${at(claim.now)}))
      ORDER BY "runAt"
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "Job" AS j
    SET "status" = 'RUNNING', "lockedBy" = ${claim.workerId}, "lockedUntil" = ${at(claim.lockedUntil)},
        "attempts" = j."attempts" + 1
    FROM due WHERE j."id" = due."id"
    RETURNING j."id", j."queue", j."payload", j."attempts", j."maxAttempts"`;
}

/** Keeps a running job's lease; false when the job is no longer this claim's. */
export async function extendLease(db: Db, job: ClaimedJob, lockedUntil: Date): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Job" SET "lockedUntil" = ${at(lockedUntil)}
    WHERE "id" = ${job.id} AND "status" = 'RUNNING' AND "attempts" = ${job.attempts}`;
  return updated === 1;
}

/** Records how a claimed run ended; false (and no change) when the job is no longer this claim's. */
export async function finishJob(sql: Sql, job: ClaimedJob, outcome: Outcome): Promise<boolean> {
  const runAt = outcome.status === 'PENDING' ? at(outcome.runAt) : Prisma.sql`"runAt"`;
  const finishedAt = outcome.status === 'PENDING' ? Prisma.sql`NULL` : at(outcome.at);
  const updated = await sql.$executeRaw`
    UPDATE "Job"
    SET "status" = ${outcome.status}::"JobStatus", "runAt" = ${runAt}, "finishedAt" = ${finishedAt},
        "lastError" = ${'error' in outcome ? outcome.error : Prisma.sql`"lastError"`},
        "lockedBy" = NULL, "lockedUntil" = NULL
    WHERE "id" = ${job.id} AND "status" = 'RUNNING' AND "attempts" = ${job.attempts}`;
  return updated === 1;
}
