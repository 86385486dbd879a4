import type { Caps, Lane } from '@gateway/jobs';
import { MAINTENANCE_QUEUE } from './maintenance';
import { VAULT_QUEUES } from './vault/erasure';

/**
 * Short time-critical work (CCV and card erasure, the maintenance sweep) has slots of its own, so
 * no account's long jobs (batch chunks on a slow provider) can hold it past its deadline.
 */
export const urgentLane: Lane = { queues: [VAULT_QUEUES.eraseCcv, VAULT_QUEUES.expire, MAINTENANCE_QUEUE], concurrency: 2 };

/**
 * The rest of the internal work (batch chunks, subscription billing, reversals, confirmations, 4
 * slots per process) is claimed round-robin by account (the job's group), and one account has at
 * most 2 jobs running in each process: another account's work always finds a slot, and more
 * processes still run one account's work faster. Those jobs have no target (each is its own), so
 * `perTarget` never binds.
 */
export const INTERNAL_CAPS: Caps = { perGroup: 2, perTarget: 1, perWorker: true };
