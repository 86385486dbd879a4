import { passesLuhn } from '@gateway/core';
/**
 * Stripe's test cards, as its testing documentation describes them: card numbers, the test
 * PaymentMethod ids (`pm_card_…`) and test tokens (`tok_…`) that stand for them, and what each does.
 * Any other number passing the Luhn check approves.
 */

export type CardBehaviour =
  | { kind: 'approve' }
  /** Refused when charged; `onAttach`: also when attached to a customer (Stripe checks the card then). */
  | { kind: 'decline'; code: string; declineCode: string; onAttach: boolean }
  /**
   * 3-D Secure must be completed: a challenge on session (a redirect with `return_url`, Stripe.js
   * otherwise), `authentication_required` off session. `declineAfter`: the issuer declines once the
   * payer passed the challenge.
   */
  | { kind: 'authenticate'; declineAfter?: { code: string; declineCode: string } }
  /**
   * 3-D Secure 2 supported, not required: authenticated without a challenge when the payer can be
   * redirected (`return_url`); challenged when 3-D Secure is requested (`request_three_d_secure=any`).
   */
  | { kind: 'frictionless' }
  /** Approves without a CVC; declined `incorrect_cvc` when one is given (cvc_check fails). */
  | { kind: 'cvc_check_fails' };

export interface StripeTestCard {
  number: string;
  brand: string;
  behaviour: CardBehaviour;
  paymentMethod?: string;
  token?: string;
}

const decline = (code: string, declineCode: string, onAttach = true): CardBehaviour => ({ kind: 'decline', code, declineCode, onAttach });

export const STRIPE_TEST_CARDS: readonly StripeTestCard[] = [
  { number: '4242424242424242', brand: 'visa', behaviour: { kind: 'approve' }, paymentMethod: 'pm_card_visa', token: 'tok_visa' },
  {
    number: '5555555555554444',
    brand: 'mastercard',
    behaviour: { kind: 'approve' },
    paymentMethod: 'pm_card_mastercard',
    token: 'tok_mastercard',
  },
  { number: '378282246310005', brand: 'amex', behaviour: { kind: 'approve' }, paymentMethod: 'pm_card_amex', token: 'tok_amex' },
  {
    number: '4000000000000002',
    brand: 'visa',
    behaviour: decline('card_declined', 'generic_decline'),
    paymentMethod: 'pm_card_visa_chargeDeclined',
    token: 'tok_chargeDeclined',
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    behaviour: decline('card_declined', 'insufficient_funds'),
    paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    token: 'tok_chargeDeclinedInsufficientFunds',
  },
  {
    number: '4000000000009987',
    brand: 'visa',
    behaviour: decline('card_declined', 'lost_card'),
    paymentMethod: 'pm_card_visa_chargeDeclinedLostCard',
    token: 'tok_chargeDeclinedLostCard',
  },
  {
    number: '4000000000009979',
    brand: 'visa',
    behaviour: decline('card_declined', 'stolen_card'),
    paymentMethod: 'pm_card_visa_chargeDeclinedStolenCard',
    token: 'tok_chargeDeclinedStolenCard',
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    behaviour: decline('expired_card', 'expired_card'),
    paymentMethod: 'pm_card_chargeDeclinedExpiredCard',
    token: 'tok_chargeDeclinedExpiredCard',
  },
  {
    number: '4000000000000127',
    brand: 'visa',
    behaviour: decline('incorrect_cvc', 'incorrect_cvc'),
    paymentMethod: 'pm_card_chargeDeclinedIncorrectCvc',
    token: 'tok_chargeDeclinedIncorrectCvc',
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    behaviour: decline('processing_error', 'processing_error'),
    paymentMethod: 'pm_card_chargeDeclinedProcessingError',
    token: 'tok_chargeDeclinedProcessingError',
  },
  {
    number: '4000000000006975',
    brand: 'visa',
    behaviour: decline('card_declined', 'card_velocity_exceeded'),
    paymentMethod: 'pm_card_visa_chargeDeclinedVelocityLimitExceeded',
  },
  {
    number: '4100000000000019',
    brand: 'visa',
    behaviour: decline('card_declined', 'fraudulent'),
    paymentMethod: 'pm_card_radarBlock',
    token: 'tok_radarBlock',
  },
  {
    number: '4000000000000341',
    brand: 'visa',
    behaviour: decline('card_declined', 'generic_decline', false),
    paymentMethod: 'pm_card_chargeCustomerFail',
    token: 'tok_chargeCustomerFail',
  },
  {
    number: '4000000000000101',
    brand: 'visa',
    behaviour: { kind: 'cvc_check_fails' },
    paymentMethod: 'pm_card_cvcCheckFail',
    token: 'tok_cvcCheckFail',
  },
  {
    number: '4000000000003220',
    brand: 'visa',
    behaviour: { kind: 'authenticate' },
    paymentMethod: 'pm_card_threeDSecure2Required',
    token: 'tok_threeDSecure2Required',
  },
  {
    number: '4000002760003184',
    brand: 'visa',
    behaviour: { kind: 'authenticate' },
    paymentMethod: 'pm_card_authenticationRequired',
    token: 'tok_authenticationRequired',
  },
  {
    number: '4000008400001629',
    brand: 'visa',
    behaviour: { kind: 'authenticate', declineAfter: { code: 'card_declined', declineCode: 'generic_decline' } },
  },
  {
    number: '4000000000003055',
    brand: 'visa',
    behaviour: { kind: 'frictionless' },
    paymentMethod: 'pm_card_threeDSecureOptional',
    token: 'tok_threeDSecureOptional',
  },
];

/** A number the provider takes as a card number: 12 to 19 digits that pass the Luhn check. */
export function luhnValid(number: string): boolean {
  return /^\d{12,19}$/.test(number) && passesLuhn(number);
}

/** The brand Stripe reports for a number (its first digits). */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  if (/^35/.test(number)) return 'jcb';
  if (/^3[068]/.test(number)) return 'diners';
  if (/^62/.test(number)) return 'unionpay';
  return 'unknown';
}

export function testCard(number: string): StripeTestCard {
  return STRIPE_TEST_CARDS.find((c) => c.number === number) ?? { number, brand: brandOf(number), behaviour: { kind: 'approve' } };
}
