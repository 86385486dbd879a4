import type { Outputs } from '../../../lib/types';

export type BatchStatus = Outputs['batch']['status'];

/** States in which rows are still being charged. */
const RUNNING: ReadonlySet<string> = new Set(['RECEIVED', 'CREATED', 'IN_PROGRESS']);

export const isRunning = (batch: Pick<BatchStatus, 'status'>) => RUNNING.has(batch.status);

export const percentDone = (batch: Pick<BatchStatus, 'progress'>) => `${Math.floor(batch.progress * 100)} %`;
