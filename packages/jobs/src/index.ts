export { PermanentJobError, type JobContext, type JobHandler } from './handler';
export { createJobQueue, type EnqueueOptions, type JobQueue } from './queue';
export { startWorker, type Worker, type WorkerOptions } from './worker';
