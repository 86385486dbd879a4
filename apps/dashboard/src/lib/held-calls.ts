import { formatMoney } from './format';
import type { Outputs } from './types';

/**
 * Calls whose outcome is unknown at the provider (dashboard.unknownOutcomes): a provider without
 * idempotency keys (NAB Transact) lost its answer, so nobody knows whether it made the payment,
 * capture, void or refund. The gateway holds each for staff, who look it up at the provider and
 * settle it as they found it. The words staff read about them.
 */
export type HeldCall = Outputs['dashboard']['unknownOutcomes'][number];
export type HeldOperation = HeldCall['operation'];

/** The most the list answers (the service's `take`): a full page means there may be more. */
export const HELD_LIST_LIMIT = 100;

export const OPERATION_WORDS: Record<HeldOperation, string> = {
  payment: 'Payment',
  authorisation: 'Authorisation',
  capture: 'Capture',
  void: 'Void',
  refund: 'Refund',
};

/** "the payment of A$11.00", "the void of the authorisation of A$13.00". */
export function operationText(h: HeldCall): string {
  const money = formatMoney(h.amount, h.currency);
  return h.operation === 'void' ? `the void of the authorisation of ${money}` : `the ${h.operation} of ${money}`;
}

/** Where and by what staff find a held call at its provider, and what its ids are called there. */
export interface ProviderLookup {
  /** Where to look: "NAB Transact" (its merchant portal), else the provider's name. */
  where: string;
  /** What the reference is there: "purchase order". */
  what: string;
  transactionLabel: string;
  authorisationLabel: string;
}

export function lookupOf(h: Pick<HeldCall, 'providerType' | 'providerName'>): ProviderLookup {
  if (h.providerType === 'nab_transact') {
    return {
      where: 'NAB Transact',
      what: 'purchase order',
      transactionLabel: 'NAB transaction id (txnID)',
      authorisationLabel: 'NAB pre-authorisation id (preauthID)',
    };
  }
  return {
    where: h.providerName || 'the provider',
    what: 'reference',
    transactionLabel: 'Transaction id at the provider',
    authorisationLabel: 'Authorisation id at the provider',
  };
}

/** The ids a settling as "made" needs: the provider's transaction id but for a capture or void, and an authorisation's own id too. */
export function idsNeeded(operation: HeldOperation): { transaction: boolean; authorisation: boolean } {
  // A completion (capture) is a transaction of its own, whose id later refunds quote; a void is not.
  return { transaction: operation !== 'void', authorisation: operation === 'authorisation' };
}

/** What settling a held call does to its charge, in staff's words. */
export function consequence(h: HeldCall, made: boolean): string {
  const money = formatMoney(h.amount, h.currency);
  switch (h.operation) {
    case 'payment':
      return made ? 'The charge becomes Paid.' : 'The charge becomes Failed: nothing was taken from the payer.';
    case 'authorisation':
      return made
        ? `The charge becomes Authorised: ${money} is reserved on the payer’s card, to capture or void.`
        : 'The charge becomes Failed: nothing was reserved on the payer’s card.';
    case 'capture':
      return made
        ? `The capture of ${money} is recorded: the charge becomes Paid.`
        : 'The capture is released: the charge stays Authorised, to capture or void again.';
    case 'void':
      return made
        ? 'The void is recorded: the charge becomes Authorisation cancelled.'
        : 'The void is released: the charge stays Authorised, to capture or void again.';
    case 'refund':
      return made ? `The refund of ${money} is recorded.` : `The refund fails: its ${money} can be refunded again.`;
  }
}

/** How staff settled it: "Made" or "Not made", who and when are apart. */
export const resolutionText = (h: HeldCall) => (h.resolution === 'made' ? 'Made' : h.resolution === 'not_made' ? 'Not made' : '—');

/** Who settled it, as people read it: their name and email, else the id the gateway kept. */
export const settledByText = (h: HeldCall) =>
  h.resolvedByStaff ? `${h.resolvedByStaff.name} (${h.resolvedByStaff.email})` : (h.resolvedBy ?? '—');

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago", "2 days ago": how long a call has been held. */
export function ageText(iso: string, now = Date.now()): string {
  const elapsed = now - new Date(iso).getTime();
  for (const [unit, ms] of UNITS) if (elapsed >= ms) return relative.format(-Math.floor(elapsed / ms), unit);
  return 'just now';
}
