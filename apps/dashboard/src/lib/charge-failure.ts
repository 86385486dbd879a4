import type { Charge } from './types';

/** Why a charge failed, in the words of its last failed attempt ("The card was declined: Insufficient funds"); undefined unless FAILED. */
export const failureReason = (c: Pick<Charge, 'status' | 'failedAttempts'>) =>
  c.status === 'FAILED' ? c.failedAttempts.at(-1)?.errorMessage : undefined;
