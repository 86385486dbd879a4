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

/** Jobs that may be claimed now: pending ones whose time has come, and running ones whose lease expired because their worker died. */
const due = (now: Date, alias = Prisma.sql`"Job"`) =>
  Prisma.sql`((${alias}."status" = 'PENDING' AND ${alias}."runAt" <= ${at(now)})
    OR (${alias}."status" = 'RUNNING' AND ${alias}."lockedUntil" <= ${at(now)}))`;

/** How many running jobs of one group, and of one target, a fair claim lets run at once. */
export interface Caps {
  perGroup: number;
  perTarget: number;
  /**
   * Count only this worker's running jobs, so the caps hold per process (a share of its slots)
   * rather than across all processes (what an endpoint can take).
   */
  perWorker?: boolean;
}

export interface Claim {
  queues: string[];
  limit: number;
  workerId: string;
  now: Date;
  lockedUntil: Date;
  /** Fair claiming (claimFairly) instead of oldest first. */
  caps?: Caps;
}

/**
 * Takes up to `limit` due jobs of `queues` in one statement, oldest first. SKIP LOCKED lets
 * concurrent workers pass over each other's candidates instead of waiting for them.
 */
export function claimJobs(db: Db, claim: Claim): Promise<ClaimedJob[]> {
  if (claim.caps) return claimFairly(db, claim, claim.caps);
  return take(
    db,
    claim,
    Prisma.sql`
      SELECT "id" FROM "Job"
      WHERE "queue" IN (${Prisma.join(claim.queues)}) AND ${due(claim.now)}
      ORDER BY "runAt"
      LIMIT ${claim.limit}
      FOR UPDATE SKIP LOCKED`,
  );
}

/**
 * Takes up to `limit` due jobs round-robin: first by group (an account), counting the jobs each
 * group already has running, so the group with the fewest goes first; within a group by target
 * (an endpoint), likewise. No group gets more than `perGroup` running jobs, no target more than
 * `perTarget`, so one group's slow targets cannot hold every slot. Jobs without a group share the
 * group ''; without a target ('') each is its own. The caps count the running jobs this statement
 * sees: workers claiming at the same instant may each fill them once (see docs/decisions.md).
 *
 * Bounded by the number of (group, target) pairs, not by the backlog: the pairs with pending jobs
 * are found by a skip scan of the (status, queue, groupKey, targetKey, runAt) index, one index
 * probe per pair, and only the first few due jobs of each pair are read.
 */
function claimFairly(db: Db, claim: Claim, caps: Caps): Promise<ClaimedJob[]> {
  const queues = Prisma.join(claim.queues);
  const now = at(claim.now);
  const mine = caps.perWorker ? Prisma.sql`AND "lockedBy" = ${claim.workerId}` : Prisma.empty;
  const nextPair = (after: Prisma.Sql) => Prisma.sql`
    SELECT "queue" AS q, "groupKey" AS g, "targetKey" AS t FROM "Job"
    WHERE "status" = 'PENDING' AND "queue" IN (${queues}) ${after}
    ORDER BY "queue", "groupKey", "targetKey" LIMIT 1`;
  return take(
    db,
    claim,
    Prisma.sql`
      WITH RECURSIVE pairs AS (
        (${nextPair(Prisma.empty)})
        UNION ALL
        SELECT n.* FROM pairs p CROSS JOIN LATERAL (${nextPair(Prisma.sql`AND ("queue", "groupKey", "targetKey") > (p.q, p.g, p.t)`)}) n
      ),
      keyed AS (
        SELECT c."id", c."runAt", p.g, CASE WHEN p.t = '' THEN c."id" ELSE p.t END AS t
        FROM pairs p CROSS JOIN LATERAL (
          SELECT "id", "runAt" FROM "Job"
          WHERE "status" = 'PENDING' AND "queue" = p.q AND "groupKey" = p.g AND "targetKey" = p.t AND "runAt" <= ${now}
          ORDER BY "runAt" LIMIT ${Math.max(caps.perGroup, caps.perTarget)}
        ) c
        UNION ALL
        SELECT "id", "runAt", "groupKey", CASE WHEN "targetKey" = '' THEN "id" ELSE "targetKey" END
        FROM "Job" WHERE "queue" IN (${queues}) AND "status" = 'RUNNING' AND "lockedUntil" <= ${now}
      ),
      running AS (
        SELECT "groupKey" AS g, CASE WHEN "targetKey" = '' THEN "id" ELSE "targetKey" END AS t FROM "Job"
        WHERE "queue" IN (${queues}) AND "status" = 'RUNNING' AND "lockedUntil" > ${now} ${mine}
      ),
      busy_group AS (SELECT g, count(*) AS n FROM running GROUP BY g),
      busy_target AS (SELECT t, count(*) AS n FROM running GROUP BY t),
      by_target AS (
        SELECT k."id", k."runAt", k.g,
          row_number() OVER (PARTITION BY k.t ORDER BY k."runAt", k."id") + COALESCE(bt.n, 0) AS target_rank
        FROM keyed k LEFT JOIN busy_target bt ON bt.t = k.t
      ),
      ranked AS (
        SELECT c."id", c."runAt",
          row_number() OVER (PARTITION BY c.g ORDER BY c.target_rank, c."runAt", c."id") + COALESCE(bg.n, 0) AS group_rank
        FROM by_target c LEFT JOIN busy_group bg ON bg.g = c.g
        WHERE c.target_rank <= ${caps.perTarget}
      )
      SELECT j."id" FROM "Job" j JOIN ranked r ON r."id" = j."id"
      WHERE r.group_rank <= ${caps.perGroup} AND ${due(claim.now, Prisma.sql`j`)}
      ORDER BY r.group_rank, r."runAt", r."id"
      LIMIT ${claim.limit}
      FOR UPDATE OF j SKIP LOCKED`,
  );
}

/** Marks the jobs `candidates` selects (and locks) as this worker's. */
function take(db: Db, claim: Claim, candidates: Prisma.Sql): Promise<ClaimedJob[]> {
  return db.$queryRaw<ClaimedJob[]>`
    WITH chosen AS MATERIALIZED (${candidates})
    UPDATE "Job" AS j
    SET "status" = 'RUNNING', "lockedBy" = ${claim.workerId}, "lockedUntil" = ${at(claim.lockedUntil)},
        "attempts" = j."attempts" + 1
    FROM chosen WHERE j."id" = chosen."id"
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
