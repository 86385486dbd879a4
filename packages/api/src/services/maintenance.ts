import type { JobHandler } from '@gateway/jobs';
import type { Dependencies } from './deps';
import { deleteInBatches } from './prune';

export const MAINTENANCE_QUEUE = 'maintenance.sweep';
const EVERY_MS = 60_000;
/** Finished jobs are kept this long for inspection, then deleted. */
const KEEP_FINISHED_JOBS_MS = 7 * 24 * 60 * 60_000;
const PRUNE_BATCH = 1_000;

export interface Sweep {
  name: string;
  run(): Promise<number>;
}

/**
 * Housekeeping that runs once a minute on one of the gateway processes: each run enqueues the
 * next, keyed by its minute, so however many processes start the chain there is one run a minute,
 * and a crash only delays it until its lease expires.
 */
export function createMaintenance({ db, clock, logger, jobs }: Dependencies, sweeps: Sweep[]) {
  const nextRun = () => new Date(Math.floor(clock.now().getTime() / EVERY_MS) * EVERY_MS + EVERY_MS);
  const scheduleNext = async () => {
    const runAt = nextRun();
    await jobs.enqueue(MAINTENANCE_QUEUE, {}, { runAt, dedupeKey: `maintenance:${runAt.toISOString()}` });
  };

  const finishedJobs: Sweep = {
    name: 'finished jobs',
    run: () => {
      const before = new Date(clock.now().getTime() - KEEP_FINISHED_JOBS_MS);
      return deleteInBatches(
        PRUNE_BATCH,
        (limit) => db.$executeRaw`
          DELETE FROM "Job" WHERE "id" IN (
            SELECT "id" FROM "Job" WHERE "status" IN ('SUCCEEDED', 'FAILED') AND "finishedAt" < ${before.toISOString()}::timestamptz LIMIT ${limit})`,
      );
    },
  };

  const run: JobHandler = async () => {
    for (const sweep of [...sweeps, finishedJobs]) {
      try {
        const changed = await sweep.run();
        if (changed > 0) logger.info({ sweep: sweep.name, changed }, 'maintenance');
      } catch (error) {
        logger.error({ err: error, sweep: sweep.name }, 'maintenance sweep failed');
      }
    }
    await scheduleNext();
  };

  return { start: scheduleNext, jobHandlers: { [MAINTENANCE_QUEUE]: run } };
}
