import type { FailureCategory } from '../../connector.js';
import { passesLuhn } from '@gateway/core';
import type { ResponseCode } from './response-codes.js';

export type TestCardOutcome =
  | 'approved'
  | Extract<FailureCategory, 'do_not_honour' | 'insufficient_funds' | 'expired_card' | 'stolen_card' | 'processor_error' | 'timeout'>;

/**
 * How the issuer of a card wants the payer authenticated (3-D Secure): a challenge the payer
 * completes (and then the payment is approved, still fails authentication, or is declined by the
 * issuer), authenticated without a challenge, or unavailable (authentication required, not possible).
 */
export type ThreeDsBehaviour = 'challenge' | 'challenge_fails' | 'challenge_then_decline' | 'frictionless' | 'unavailable';

export interface TestCard {
  number: string;
  scheme: 'Visa' | 'Mastercard' | 'American Express';
  outcome: TestCardOutcome;
  /** The simulated acquirer's response code (after authentication, for a 3-D Secure card). */
  responseCode: ResponseCode;
  threeDs?: ThreeDsBehaviour;
  description: string;
}

/**
 * Card numbers with a fixed outcome at the simulated acquirer. Any other number that passes the
 * Luhn check is approved; one that fails it is declined as an invalid card (response code 14).
 */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', scheme: 'Visa', outcome: 'approved', responseCode: '00', description: 'Approved.' },
  { number: '5555555555554444', scheme: 'Mastercard', outcome: 'approved', responseCode: '00', description: 'Approved.' },
  { number: '378282246310005', scheme: 'American Express', outcome: 'approved', responseCode: '00', description: 'Approved.' },
  { number: '4242424242424242', scheme: 'Visa', outcome: 'approved', responseCode: '00', description: 'Approved.' },
  { number: '4000000000000002', scheme: 'Visa', outcome: 'do_not_honour', responseCode: '05', description: 'Declined: do not honour.' },
  {
    number: '4000000000009995',
    scheme: 'Visa',
    outcome: 'insufficient_funds',
    responseCode: '51',
    description: 'Declined: insufficient funds.',
  },
  { number: '4000000000000069', scheme: 'Visa', outcome: 'expired_card', responseCode: '54', description: 'Declined: expired card.' },
  { number: '4000000000009979', scheme: 'Visa', outcome: 'stolen_card', responseCode: '43', description: 'Declined: stolen card.' },
  {
    number: '4000000000000119',
    scheme: 'Visa',
    outcome: 'processor_error',
    responseCode: '96',
    description: 'Acquirer system malfunction (HTTP 503); retryable, nothing is authorised.',
  },
  {
    number: '4000000000000101',
    scheme: 'Visa',
    outcome: 'timeout',
    responseCode: '00',
    description: 'Approved, but the acquirer holds the response for 60 s, so the call times out and must be reversed.',
  },
  {
    number: '4000000000003220',
    scheme: 'Visa',
    outcome: 'approved',
    responseCode: '00',
    threeDs: 'challenge',
    description: '3-D Secure challenge; completing it approves (authenticated, transStatus Y).',
  },
  {
    number: '4000000000003063',
    scheme: 'Visa',
    outcome: 'approved',
    responseCode: '00',
    threeDs: 'challenge_fails',
    description: '3-D Secure challenge; completing it still fails authentication (transStatus N).',
  },
  {
    number: '4000000000003055',
    scheme: 'Visa',
    outcome: 'approved',
    responseCode: '00',
    threeDs: 'frictionless',
    description: '3-D Secure without a challenge (frictionless, transStatus Y) when the payment allows it; approved either way.',
  },
  {
    number: '4000008400001629',
    scheme: 'Visa',
    outcome: 'do_not_honour',
    responseCode: '05',
    threeDs: 'challenge_then_decline',
    description: '3-D Secure challenge passed, then declined by the issuer: do not honour.',
  },
  {
    number: '4000000000003097',
    scheme: 'Visa',
    outcome: 'approved',
    responseCode: '00',
    threeDs: 'unavailable',
    description: 'Authentication required but unavailable at the issuer (transStatus U): refused, with or without 3-D Secure.',
  },
];

/** What the acquirer does when the card is charged: the response code, and whether it holds the answer. */
export interface CardBehaviour {
  code: ResponseCode;
  hold: boolean;
  threeDs?: ThreeDsBehaviour;
}

export function cardBehaviour(number: string): CardBehaviour {
  const card = TEST_CARDS.find((c) => c.number === number);
  if (card) return { code: card.responseCode, hold: card.outcome === 'timeout', threeDs: card.threeDs };
  return { code: passesLuhn(number) ? '00' : '14', hold: false };
}
