import { describe, expect, it } from 'vitest';
import { canTransition, CHARGE_STATUSES, type ChargeStatus, type ChargeTransition } from './status';

/** Every status a transition may start from, the rest refused: the table as the state machine reads. */
const ALLOWED: Record<ChargeTransition, ChargeStatus[]> = {
  authorise: ['PROCESSING', 'PENDING'],
  succeed: ['PROCESSING', 'PENDING'],
  fail: ['PROCESSING', 'PENDING'],
  await: ['PROCESSING'],
  capture: ['AUTHORISE'],
  void: ['AUTHORISE'],
  refund: ['SUCCESS', 'PARTIAL_REFUND'],
};

describe('charge transitions', () => {
  it.each(Object.entries(ALLOWED) as Array<[ChargeTransition, ChargeStatus[]]>)('%s starts only from %j', (transition, from) => {
    for (const status of CHARGE_STATUSES)
      expect(canTransition(status, transition), `${transition} from ${status}`).toBe(from.includes(status));
  });

  it('lets a charge waiting for its payer’s 3-D Secure end authorised, succeeded or failed, and nothing else', () => {
    const fromPending = (Object.keys(ALLOWED) as ChargeTransition[]).filter((transition) => canTransition('PENDING', transition));
    expect(fromPending.sort()).toEqual(['authorise', 'fail', 'succeed']);
  });
});
