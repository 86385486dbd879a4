export { PermanentJobError, type JobContext, type JobHandler } from './handler';
export { createJobQueue, type Clock, type EnqueueOptions, type JobQueue } from './queue';
export { startWorker, type Logger, type Worker, type WorkerOptions } from './worker';
