import type { ReactNode } from 'react';

/** A charge's status in the words staff use (the API's words are for programs). */
export const CHARGE_STATUS_WORDS: Record<string, string> = {
  SUCCESS: 'Paid',
  AUTHORISE: 'Authorised',
  PARTIAL_REFUND: 'Partially refunded',
  REFUND: 'Refunded',
  AUTHORISE_CANCELLED: 'Authorisation cancelled',
  FAILED: 'Failed',
  PENDING: 'Pending',
  PENDING_CHECKOUT: 'Awaiting checkout',
};

export const chargeStatusText = (status: string) => CHARGE_STATUS_WORDS[status] ?? status.replaceAll('_', ' ');

/**
 * How a status looks: `good` (green) for money taken, `held` for money only reserved (an
 * authorisation: outlined and dashed, so that it never reads as paid, colour apart), `bad` for
 * what failed or was undone.
 */
export type Tone = 'good' | 'held' | 'bad' | 'neutral';

const CHARGE_TONES: Record<string, Tone> = { SUCCESS: 'good', AUTHORISE: 'held', FAILED: 'bad', AUTHORISE_CANCELLED: 'bad' };

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

/** The status of a charge, in words, coloured by how it ended (the words carry the meaning too). */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={CHARGE_TONES[status] ?? 'neutral'}>{chargeStatusText(status)}</Badge>;
}
