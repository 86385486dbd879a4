import type { Prisma } from '@gateway/db';

export interface JobContext {
  jobId: string;
  /** 1 on the first run; counts every claim, including ones whose worker died. */
  attempt: number;
  /** Aborted when this worker lost the job's lease or gave up waiting for it on stop(). */
  signal: AbortSignal;
  /**
   * Marks the job SUCCEEDED inside the handler's own transaction, so that its writes and the
   * completion commit together: a job whose effects committed is never run again. Throws (and so
   * rolls the transaction back) when the job is no longer this run's, e.g. its lease expired and
   * another worker took it over.
   */
  complete(tx: Prisma.TransactionClient): Promise<void>;
}

export type JobHandler = (payload: Prisma.JsonValue, ctx: JobContext) => Promise<void>;

/** Thrown by a handler for a job that can never succeed: it fails at once, without retries. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}
