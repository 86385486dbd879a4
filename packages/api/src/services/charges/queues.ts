/** Background queues of charges (handlers in recovery.ts). */
export const REVERSE_QUEUE = 'charge.reverse-attempt';
export const CONFIRM_CAPTURE_QUEUE = 'charge.confirm-capture';
export const CONFIRM_VOID_QUEUE = 'charge.confirm-void';
export const CONFIRM_REFUND_QUEUE = 'charge.confirm-refund';
/** Reverses and fails one charge left PROCESSING by a process seen dead, once stuck (an Idempotency-Key's repeat asks for it). */
export const RECOVER_QUEUE = 'charge.recover-abandoned';

/**
 * A capture, void or refund enqueues its confirming job before it calls the provider, due this
 * long later: if the request finishes, it cancels the job; if the process dies on the way, the
 * job finds out from the provider (same idempotency key) what happened.
 */
export const CONFIRM_AFTER_MS = 2 * 60_000;

/** Gives up on a charge whose payer did not complete 3-D Secure in time (three-d-secure.ts). */
export const THREE_DS_TIMEOUT_QUEUE = 'charge.threeds-timeout';

/** Asks the provider whether a bank-account or PayTo debit has settled (or failed). */
export const SETTLE_DEBIT_QUEUE = 'charge.settle-debit';
