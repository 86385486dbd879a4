import type { FailureCategory, ProviderFailure } from '../connector.js';

/**
 * Stripe's error and decline codes in the gateway's terms: failure category, whether the same call
 * may succeed later, and the gateway's own message (Stripe's `message` is never passed on).
 * Keys are Stripe's `code`, `card_declined/<decline_code>` for issuer declines, or the connector's
 * own name for an answer without a code (an HTTP status, a timeout). docs/providers/stripe.md lists
 * every row, and stripe-codes.test.ts holds the two together.
 */

interface Row {
  category: FailureCategory;
  retryable: boolean;
  message: string;
}

const row = (category: FailureCategory, message: string, retryable = false): Row => ({ category, retryable, message });

export const STRIPE_CODES = {
  // Issuer declines: code card_declined, the reason in decline_code.
  card_declined: row('do_not_honour', 'Declined by the card issuer'),
  'card_declined/generic_decline': row('do_not_honour', 'Declined by the card issuer'),
  'card_declined/do_not_honor': row('do_not_honour', 'Declined by the card issuer: do not honour'),
  'card_declined/insufficient_funds': row('insufficient_funds', 'Insufficient funds'),
  'card_declined/lost_card': row('stolen_card', 'The card is reported lost'),
  'card_declined/stolen_card': row('stolen_card', 'The card is reported stolen'),
  'card_declined/pickup_card': row('stolen_card', 'The card may not be used (pick up card)'),
  'card_declined/restricted_card': row('stolen_card', 'The card is restricted'),
  'card_declined/fraudulent': row('suspected_fraud', 'Declined as suspected fraud'),
  'card_declined/merchant_blacklist': row('suspected_fraud', 'Declined by the merchant account’s block list'),
  'card_declined/security_violation': row('suspected_fraud', 'Declined for a security violation'),
  'card_declined/card_velocity_exceeded': row('over_limit', 'The card’s limit is exceeded'),
  'card_declined/withdrawal_count_limit_exceeded': row('over_limit', 'The card’s limit is exceeded'),
  'card_declined/authentication_required': row('authentication_required', 'The card needs 3-D Secure authentication'),
  'card_declined/incorrect_cvc': row('invalid_cvc', 'The CCV is incorrect'),
  'card_declined/invalid_cvc': row('invalid_cvc', 'The CCV is incorrect'),
  'card_declined/expired_card': row('expired_card', 'The card has expired'),
  'card_declined/incorrect_number': row('invalid_card', 'The card number is incorrect'),
  'card_declined/invalid_number': row('invalid_card', 'The card number is incorrect'),
  'card_declined/invalid_account': row('invalid_card', 'The card or its account is invalid'),
  'card_declined/card_not_supported': row('invalid_card', 'The card does not support this kind of payment'),
  'card_declined/testmode_decline': row('invalid_card', 'A test card was used with a live key'),
  'card_declined/currency_not_supported': row('not_permitted', 'The card does not take this currency'),
  'card_declined/processing_error': row('processor_error', 'The card could not be processed; try again', true),
  'card_declined/issuer_not_available': row('processor_error', 'The card issuer could not be reached; try again', true),
  'card_declined/try_again_later': row('processor_error', 'Declined for now; try again later', true),
  'card_declined/reenter_transaction': row('processor_error', 'The card could not be processed; try again', true),
  // Card errors with their own code.
  expired_card: row('expired_card', 'The card has expired'),
  incorrect_cvc: row('invalid_cvc', 'The CCV is incorrect'),
  invalid_cvc: row('invalid_cvc', 'The CCV is invalid'),
  incorrect_number: row('invalid_card', 'The card number is incorrect'),
  invalid_number: row('invalid_card', 'The card number is invalid'),
  invalid_expiry_month: row('invalid_request', 'The card’s expiry month is invalid'),
  invalid_expiry_year: row('invalid_request', 'The card’s expiry year is invalid'),
  processing_error: row('processor_error', 'The card could not be processed; try again', true),
  authentication_required: row('authentication_required', 'The card needs 3-D Secure authentication'),
  payment_intent_authentication_failure: row('authentication_required', 'The card’s 3-D Secure authentication failed'),
  card_decline_rate_limit_exceeded: row('do_not_honour', 'The card was declined too many times recently'),
  // Requests Stripe refused.
  resource_missing: row('not_found', 'Stripe does not know this payment, card or customer'),
  amount_too_small: row('invalid_amount', 'The amount is below Stripe’s minimum for the currency'),
  amount_too_large: row('invalid_amount', 'The amount is above what Stripe allows here'),
  invalid_charge_amount_no_decimal_compatible: row('invalid_amount', 'Stripe cannot take an amount this fine in the currency'),
  charge_already_refunded: row('invalid_request', 'The payment is already fully refunded'),
  charge_already_captured: row('invalid_request', 'The payment is already captured'),
  charge_not_refundable: row('invalid_request', 'The payment cannot be refunded in its state'),
  payment_intent_unexpected_state: row('invalid_request', 'The payment is not in a state that allows this'),
  token_already_used: row('invalid_request', 'The token was already used'),
  testmode_charges_only: row('not_permitted', 'The Stripe account may not take live payments yet'),
  api_key_expired: row('credentials_refused', 'The Stripe secret key has expired'),
  idempotency_key_in_use: row('processor_error', 'The same call is still running at Stripe; try again', true),
  rate_limit: row('processor_error', 'Stripe is limiting the rate of calls; try again', true),
  lock_timeout: row('processor_error', 'Stripe was busy with the same object; try again', true),
  // Answers without a code of their own.
  RAW_CARD_DATA: row('not_permitted', 'The Stripe account is not enabled for raw card numbers: use Stripe.js tokens'),
  REQUIRES_ACTION: row('authentication_required', 'The card needs 3-D Secure authentication'),
  CANCELED: row('authentication_required', 'The payment was cancelled before the payer’s 3-D Secure authentication ended'),
  OTHER_PAYMENT: row('invalid_request', 'Not this charge’s payment intent (another id, amount or currency)'),
  IDEMPOTENCY_ERROR: row('invalid_request', 'The idempotency key was used with other parameters'),
  CARD_ERROR: row('do_not_honour', 'Declined by the card issuer'),
  INVALID_REQUEST: row('invalid_request', 'Stripe refused the request'),
  HTTP_401: row('credentials_refused', 'Stripe refused the secret key'),
  HTTP_403: row('credentials_refused', 'The key lacks a permission this operation needs'),
  HTTP_404: row('not_found', 'Stripe does not know this payment, card or customer'),
  HTTP_409: row('processor_error', 'The same call is still running at Stripe; try again', true),
  HTTP_429: row('processor_error', 'Stripe is limiting the rate of calls; try again', true),
  HTTP_5XX: row('processor_error', 'Stripe could not complete the call; try again', true),
  TIMEOUT: row('timeout', 'No answer from Stripe in time; outcome unknown', true),
  NETWORK: row('processor_error', 'Could not reach Stripe; outcome unknown', true),
  BAD_RESPONSE: row('processor_error', 'Unreadable answer from Stripe', true),
  AMOUNT: row('invalid_amount', 'Stripe cannot express this amount in the currency'),
  REFUND_FAILED: row('processor_error', 'Stripe could not refund the payment'),
  NOT_REUSABLE: row('not_found', 'The payment method is not attached to this provider’s customer'),
  UNKNOWN_TOKEN: row('invalid_request', 'Not a Stripe payment method (pm_) or card token (tok_)'),
  REVERSE_PARAMETERS: row('invalid_request', 'The attempt’s parameters are missing: the payment intent cannot be replayed'),
} satisfies Record<string, Row>;

export type StripeCode = keyof typeof STRIPE_CODES;

export function failureFor(code: StripeCode): ProviderFailure {
  const { category, retryable, message } = STRIPE_CODES[code];
  return { category, retryable, gatewayCode: code, gatewayMessage: message };
}

const known = (key: string | undefined): key is StripeCode => key !== undefined && Object.hasOwn(STRIPE_CODES, key);

/** What Stripe said in an error answer, as the connector reads it (stripe-node's StripeError carries these). */
export interface StripeErrorAnswer {
  /** Stripe's error type: card_error, invalid_request_error, api_error, idempotency_error… */
  rawType?: string;
  statusCode?: number;
  code?: string;
  decline_code?: string;
}

/** The row for an error answer: the most specific code known, else by type and HTTP status. */
export function codeForError(error: StripeErrorAnswer): StripeCode {
  const { code, decline_code: decline, statusCode = 0, rawType } = error;
  if (code === 'card_declined' && known(`card_declined/${decline}`)) return `card_declined/${decline}` as StripeCode;
  if (known(code)) return code;
  if (statusCode >= 500 || rawType === 'api_error') return 'HTTP_5XX';
  if (statusCode === 401 || statusCode === 403 || statusCode === 404 || statusCode === 409 || statusCode === 429) {
    return `HTTP_${statusCode}` as StripeCode;
  }
  if (rawType === 'idempotency_error') return 'IDEMPOTENCY_ERROR';
  if (rawType === 'card_error') return 'CARD_ERROR';
  return 'INVALID_REQUEST';
}
