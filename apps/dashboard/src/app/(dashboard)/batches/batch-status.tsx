import { Badge, type Tone } from '../../../components/status-badge';
import type { Outputs } from '../../../lib/types';

export type BatchStatus = Outputs['batch']['status'];

/** States in which rows are still being charged. */
const RUNNING: ReadonlySet<string> = new Set(['RECEIVED', 'CREATED', 'IN_PROGRESS']);

export const isRunning = (batch: Pick<BatchStatus, 'status'>) => RUNNING.has(batch.status);

export const percentDone = (batch: Pick<BatchStatus, 'progress'>) => `${Math.floor(batch.progress * 100)} %`;

const WORDS: Record<string, string> = { RECEIVED: 'Received', CREATED: 'Queued', IN_PROGRESS: 'In progress', FAILED: 'Failed' };

/**
 * A batch's status in words: one that ended with some rows failed is "Completed with failures",
 * never a plain success.
 */
function batchStatusOf({ status, failure }: Pick<BatchStatus, 'status' | 'failure'>): { text: string; tone: Tone } {
  if (status === 'SUCCESS') {
    return failure > 0 ? { text: `Completed with failures (${failure} failed)`, tone: 'bad' } : { text: 'Completed', tone: 'good' };
  }
  return { text: WORDS[status] ?? status, tone: status === 'FAILED' ? 'bad' : 'neutral' };
}

export function BatchStatusBadge({ batch }: { batch: Pick<BatchStatus, 'status' | 'failure'> }) {
  const { text, tone } = batchStatusOf(batch);
  return <Badge tone={tone}>{text}</Badge>;
}
