export { PermanentJobError, type JobContext, type JobHandler } from './handler';
export { createJobQueue, type EnqueueOptions, type JobQueue } from './queue';
export type { Caps } from './claim';
export { startWorker, type Lane, type Worker, type WorkerOptions } from './worker';
