import { hostname } from 'node:os';
import { newId, type Clock, type Logger } from '@gateway/core';
import type { Db } from '@gateway/db';
import { retryDelayMs } from './backoff';
import { claimJobs, extendLease, finishJob, type Caps, type ClaimedJob, type Outcome } from './claim';
import { PermanentJobError, type JobContext, type JobHandler } from './handler';

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** One handler per queue; the worker claims jobs of these queues only. */
  handlers: Record<string, JobHandler>;
  /** Jobs of queues in no lane run at once (default 4). */
  concurrency?: number;
  /** Claims jobs of queues in no lane round-robin by group (an account) with these caps, rather than oldest first. */
  caps?: Caps;
  /**
   * Queues whose jobs run apart, each lane with slots and claims of its own: a lane's jobs never
   * wait for another lane's slots (e.g. webhook deliveries apart from internal work).
   */
  lanes?: Lane[];
  /** How long a claim lasts unless renewed; a dead worker's jobs are taken over after it (default 30 s). */
  leaseMs?: number;
  /** Wall-clock pause before each look for due jobs while idle, the first one included (default 1 s). */
  pollMs?: number;
  /** Recorded in `lockedBy` (default host:pid:random). */
  workerId?: string;
  /** How long stop() waits for running handlers before it hands their jobs back (default 30 s). */
  stopTimeoutMs?: number;
}

export interface Worker {
  /** Runs every job that is due by the clock, including any that fall due meanwhile; resolves with how many it started. */
  runDue(): Promise<number>;
  /**
   * Stops claiming and waits for running handlers. Those still running at the timeout are aborted,
   * given a second to end, and their jobs handed back: their leases end at once, so another worker
   * takes them over as it would a dead worker's (the attempt counts). The worker writes nothing after
   * it resolves (a handler that ignores its signal may still be running).
   */
  stop(): Promise<void>;
}

export interface Lane {
  queues: string[];
  /** Jobs of this lane run at once. */
  concurrency: number;
  /** Claim round-robin by group and target with these caps, rather than oldest first (claim.ts). */
  caps?: Caps;
}

const MAX_ERROR_LENGTH = 500;
/** How long stop() lets aborted handlers end before it hands their jobs back. */
const ABORT_GRACE_MS = 1_000;

export function startWorker(options: WorkerOptions): Worker {
  const { db, clock, logger, handlers } = options;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 1_000;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const laned = new Set(options.lanes?.flatMap((lane) => lane.queues));
  const lanes = [
    { queues: Object.keys(handlers).filter((queue) => !laned.has(queue)), concurrency, caps: options.caps },
    ...(options.lanes ?? []).map((lane) => ({ ...lane, queues: lane.queues.filter((queue) => queue in handlers) })),
  ]
    .filter((lane) => lane.queues.length > 0)
    .map((lane) => ({ ...lane, running: 0 }));
  type RunningLane = (typeof lanes)[number];
  const running = new Map<Promise<void>, { job: ClaimedJob; abort: AbortController }>();
  const stopped = new Error('Worker stopped');
  const wakers = new Set<() => void>();
  /** Lanes of a pass waiting for another lane's claim to end. */
  const waitingLanes = new Set<() => void>();
  let stopping = false;
  /** Claims in flight: a lane done looking waits for them, as they may start jobs that enqueue more. */
  let claiming = 0;
  let passes = Promise.resolve(0);

  const later = (ms: number) => new Date(clock.now().getTime() + ms);
  const wake = () => wakers.forEach((waker) => waker());

  /** Waits `ms`, or less when a job finishes or the worker stops (or, for `alsoWoken`, when it is woken). */
  function nap(ms: number, alsoWoken?: Set<() => void>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        alsoWoken?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
      alsoWoken?.add(done);
    });
  }

  /**
   * Each lane claims on its own, so no lane waits for another's claim (a slow fair claim of a large
   * delivery backlog holds up no internal work). A lane keeps looking while any job runs: a job may
   * enqueue work due at once in another lane.
   */
  async function pass(): Promise<number> {
    const results = await Promise.allSettled(lanes.map(passLane));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return results.reduce((sum, result) => sum + (result.status === 'fulfilled' ? result.value : 0), 0);
  }

  async function passLane(lane: RunningLane): Promise<number> {
    let started = 0;
    for (;;) {
      if (!stopping && lane.running < lane.concurrency) {
        const { queues, caps } = lane;
        const limit = lane.concurrency - lane.running;
        claiming += 1;
        let jobs: ClaimedJob[];
        try {
          jobs = await claimJobs(db, { queues, limit, caps, workerId, now: clock.now(), lockedUntil: later(leaseMs) });
        } finally {
          claiming -= 1;
          // The last claim in flight ended with nothing running: lanes waiting for it may stop.
          if (claiming === 0 && running.size === 0) waitingLanes.forEach((waker) => waker());
        }
        for (const job of jobs) start(job, lane);
        started += jobs.length;
      }
      if (running.size === 0 && claiming === 0) return started;
      await nap(pollMs, waitingLanes);
    }
  }

  // Passes run one after another, so a pass asked for after a clock change sees that change.
  function runDue(): Promise<number> {
    const next = passes.then(pass);
    passes = next.catch(() => 0);
    return next;
  }

  function start(job: ClaimedJob, lane: RunningLane): void {
    const abort = new AbortController();
    lane.running += 1;
    const done = run(job, abort).finally(() => {
      lane.running -= 1;
      running.delete(done);
      wake();
    });
    running.set(done, { job, abort });
  }

  async function run(job: ClaimedJob, abort: AbortController): Promise<void> {
    if (job.attempts > job.maxAttempts) {
      // The worker of its last attempt died: that counts as the attempt failing.
      return record(job, { status: 'FAILED', at: clock.now(), error: 'Lease expired during the last attempt' });
    }
    // Renewed three times a lease, so one slow or lost renewal does not cost the job.
    const heartbeat = setInterval(() => {
      extendLease(db, job, later(leaseMs)).then(
        (held) => held || abort.abort(new Error('Lease lost')),
        (error) => logger.warn({ ...fields(job), error: messageOf(error) }, 'could not extend job lease'),
      );
    }, leaseMs / 3);
    abort.signal.addEventListener('abort', () => clearInterval(heartbeat));

    let completed = false;
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      signal: abort.signal,
      async complete(tx) {
        if (!(await finishJob(tx, job, { status: 'SUCCEEDED', at: clock.now() }))) {
          throw new Error(`Job ${job.id} is no longer held by this run`);
        }
        completed = true;
      },
    };
    let outcome: Outcome | undefined;
    try {
      await handlers[job.queue]!(job.payload, ctx);
      if (!completed) outcome = { status: 'SUCCEEDED', at: clock.now() };
    } catch (error) {
      // Cut short by stop(), which hands the job back: no failure of the job's own.
      if (abort.signal.reason !== stopped) outcome = failure(job, error);
    } finally {
      clearInterval(heartbeat);
    }
    if (outcome) await record(job, outcome);
  }

  function failure(job: ClaimedJob, error: unknown): Outcome {
    // The message only: payloads may hold data that must not end up in the table or the logs.
    const message = messageOf(error).slice(0, MAX_ERROR_LENGTH);
    if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
      return { status: 'FAILED', at: clock.now(), error: message };
    }
    return { status: 'PENDING', runAt: later(retryDelayMs(job.attempts)), error: message };
  }

  async function record(job: ClaimedJob, outcome: Outcome): Promise<void> {
    try {
      if (!(await finishJob(db, job, outcome))) {
        logger.warn(fields(job), 'job was taken over after its lease expired; this run is ignored');
        return;
      }
    } catch (error) {
      logger.error({ ...fields(job), error: messageOf(error) }, 'could not record job outcome; it runs again when its lease expires');
      return;
    }
    if (outcome.status === 'FAILED') logger.error({ ...fields(job), error: outcome.error }, 'job failed');
    if (outcome.status === 'PENDING') {
      logger.warn({ ...fields(job), error: outcome.error, retryAt: outcome.runAt.toISOString() }, 'job failed; will retry');
    }
  }

  const loop = (async () => {
    while (!stopping) {
      await nap(pollMs);
      if (!stopping) await runDue().catch((error) => logger.error({ workerId, error: messageOf(error) }, 'claiming jobs failed'));
    }
  })();

  async function stop(): Promise<void> {
    stopping = true;
    wake();
    const settled = Promise.all([loop, passes, ...running.keys()]);
    if (await settlesWithin(settled, options.stopTimeoutMs ?? 30_000)) return;
    const left = [...running.entries()];
    for (const [, { abort }] of left) abort.abort(stopped);
    await settlesWithin(Promise.all(left.map(([done]) => done)), ABORT_GRACE_MS);
    // A lease that ends now: the next worker to look claims the job, as if this one had died.
    await Promise.all(
      left.map(([, { job }]) =>
        extendLease(db, job, clock.now()).catch((error) =>
          logger.warn({ ...fields(job), error: messageOf(error) }, 'could not hand a job back'),
        ),
      ),
    );
    running.clear();
    wake();
  }

  return { runDue, stop };
}

const fields = (job: ClaimedJob) => ({ jobId: job.id, queue: job.queue, attempt: job.attempts });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
