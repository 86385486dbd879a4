import { failureReason } from '@gateway/core/errors/failure-reasons';
import type { Charge } from './types';

/** Why a charge failed, in a few words ("Declined: insufficient funds"), from its last failed attempt; undefined unless FAILED. */
export function failureSummary(c: Pick<Charge, 'status' | 'failedAttempts'>): string | undefined {
  const last = c.status === 'FAILED' ? c.failedAttempts.at(-1) : undefined;
  return last && failureReason(last.errorCode).summary;
}
