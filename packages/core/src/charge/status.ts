/**
 * Charge states and the transitions between them. `PROCESSING` is internal (a provider call is in
 * flight); clients see it as `PENDING`. Every change of state is made with a conditional update
 * on the `from` states below, so two concurrent operations cannot both move the same charge.
 */
export const CHARGE_STATUSES = [
  'PROCESSING',
  'PENDING',
  'FAILED',
  'SUCCESS',
  'PARTIAL_REFUND',
  'REFUND',
  'PENDING_CHECKOUT',
  'AUTHORISE',
  'AUTHORISE_CANCELLED',
] as const;

export type ChargeStatus = (typeof CHARGE_STATUSES)[number];
export type PublicChargeStatus = Exclude<ChargeStatus, 'PROCESSING'>;

/**
 * `PENDING` is where a charge waits: for its payer's 3-D Secure authentication (then authorised,
 * succeeded or failed), or for its bank (a debit: succeeded or failed).
 */
export const CHARGE_TRANSITIONS = {
  authorise: { from: ['PROCESSING', 'PENDING'], to: 'AUTHORISE' },
  succeed: { from: ['PROCESSING', 'PENDING'], to: 'SUCCESS' },
  fail: { from: ['PROCESSING', 'PENDING'], to: 'FAILED' },
  await: { from: ['PROCESSING'], to: 'PENDING' },
  capture: { from: ['AUTHORISE'], to: 'SUCCESS' },
  void: { from: ['AUTHORISE'], to: 'AUTHORISE_CANCELLED' },
  refund: { from: ['SUCCESS', 'PARTIAL_REFUND'], to: 'PARTIAL_REFUND' },
} as const satisfies Record<string, { from: readonly ChargeStatus[]; to: ChargeStatus }>;

export type ChargeTransition = keyof typeof CHARGE_TRANSITIONS;

export function canTransition(status: ChargeStatus, transition: ChargeTransition): boolean {
  return (CHARGE_TRANSITIONS[transition].from as readonly ChargeStatus[]).includes(status);
}

/** After a refund: REFUND once everything captured has been refunded, PARTIAL_REFUND before. */
export function statusAfterRefund(captured: bigint, refunded: bigint): 'REFUND' | 'PARTIAL_REFUND' {
  return refunded >= captured ? 'REFUND' : 'PARTIAL_REFUND';
}

export function publicStatus(status: ChargeStatus): PublicChargeStatus {
  return status === 'PROCESSING' ? 'PENDING' : status;
}
