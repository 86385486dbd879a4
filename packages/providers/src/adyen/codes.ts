import type { FailureCategory, ProviderFailure } from '../connector.js';

/**
 * Adyen's refusal reasons, error codes and result codes as failures. The messages are the
 * gateway's own: Adyen's free text (refusalReason, message, reason) is never passed on.
 * docs/providers/adyen.md shows the same table; every row is tested (connector.test.ts).
 */

interface Row {
  category: FailureCategory;
  retryable: boolean;
  message: string;
}

const row = (category: FailureCategory, message: string, retryable = false): Row => ({ category, retryable, message });

/** By `refusalReasonCode` (docs.adyen.com/development-resources/refusal-reasons), with Adyen's `refusalReason` beside it. */
export const REFUSALS: Readonly<Record<string, Row & { adyenReason: string }>> = {
  '0': { adyenReason: 'Unknown', ...row('processor_error', 'Adyen could not process the payment', true) },
  '2': { adyenReason: 'Refused', ...row('do_not_honour', 'Refused by the issuer') },
  '3': { adyenReason: 'Referral', ...row('do_not_honour', 'The issuer asks for a referral') },
  '4': { adyenReason: 'Acquirer Error', ...row('processor_error', 'Acquirer error', true) },
  '5': { adyenReason: 'Blocked Card', ...row('stolen_card', 'The card is blocked') },
  '6': { adyenReason: 'Expired Card', ...row('expired_card', 'The card has expired') },
  '7': { adyenReason: 'Invalid Amount', ...row('invalid_amount', 'The issuer refused the amount') },
  '8': { adyenReason: 'Invalid Card Number', ...row('invalid_card', 'Invalid card number') },
  '9': { adyenReason: 'Issuer Unavailable', ...row('processor_error', 'The issuer could not be reached', true) },
  '10': { adyenReason: 'Not supported', ...row('do_not_honour', 'The issuer does not allow this kind of payment') },
  '11': { adyenReason: '3D Not Authenticated', ...row('authentication_required', '3-D Secure authentication did not succeed') },
  '12': { adyenReason: 'Not enough balance', ...row('insufficient_funds', 'Insufficient funds') },
  '14': { adyenReason: 'Acquirer Fraud', ...row('suspected_fraud', 'Refused as possible fraud') },
  '15': { adyenReason: 'Cancelled', ...row('do_not_honour', 'The payment was cancelled') },
  '16': { adyenReason: 'Shopper Cancelled', ...row('do_not_honour', 'The card holder cancelled the payment') },
  '17': { adyenReason: 'Invalid Pin', ...row('do_not_honour', 'Invalid PIN') },
  '18': { adyenReason: 'Pin tries exceeded', ...row('do_not_honour', 'Too many PIN attempts') },
  '19': { adyenReason: 'Pin validation not possible', ...row('do_not_honour', 'The PIN could not be checked') },
  '20': { adyenReason: 'FRAUD', ...row('suspected_fraud', 'Refused by risk checks') },
  '21': { adyenReason: 'Not Submitted', ...row('processor_error', 'The payment was not submitted for processing', true) },
  '22': { adyenReason: 'FRAUD-CANCELLED', ...row('suspected_fraud', 'Cancelled by risk checks') },
  '23': { adyenReason: 'Transaction Not Permitted', ...row('do_not_honour', 'The card may not be used for this payment') },
  '24': { adyenReason: 'CVC Declined', ...row('invalid_cvc', 'The CVC was declined') },
  '25': { adyenReason: 'Restricted Card', ...row('stolen_card', 'The card is restricted') },
  '26': { adyenReason: 'Revocation Of Auth', ...row('do_not_honour', 'The card holder revoked recurring payments') },
  '27': { adyenReason: 'Declined Non Generic', ...row('do_not_honour', 'Refused by the issuer') },
  '28': { adyenReason: 'Withdrawal amount exceeded', ...row('insufficient_funds', 'The card limit would be exceeded') },
  '29': { adyenReason: 'Withdrawal count exceeded', ...row('do_not_honour', 'Too many payments on the card') },
  '31': { adyenReason: 'Issuer Suspected Fraud', ...row('suspected_fraud', 'The issuer suspects fraud') },
  '32': { adyenReason: 'AVS Declined', ...row('do_not_honour', 'The address check failed') },
  '33': { adyenReason: 'Card requires online pin', ...row('do_not_honour', 'The card needs its PIN') },
  '34': { adyenReason: 'No checking account available on Card', ...row('do_not_honour', 'The card has no checking account') },
  '35': { adyenReason: 'No savings account available on Card', ...row('do_not_honour', 'The card has no savings account') },
  '36': { adyenReason: 'Mobile PIN required', ...row('authentication_required', 'The card holder must authenticate') },
  '37': { adyenReason: 'Contactless fallback', ...row('do_not_honour', 'The card must be inserted') },
  '38': { adyenReason: 'Authentication required', ...row('authentication_required', 'The issuer requires 3-D Secure authentication') },
};

/** By `errorCode` of an error answer (docs.adyen.com/development-resources/error-codes). */
export const ERRORS: Readonly<Record<string, Row>> = {
  '010': row('not_permitted', 'The Adyen API credential is not allowed to do this (raw card numbers need Adyen’s permission)'),
  '101': row('invalid_card', 'Invalid card number'),
  '103': row('invalid_cvc', 'The CVC has the wrong length'),
  '129': row('invalid_card', 'Invalid expiry date'),
  '137': row('invalid_amount', 'Adyen refused the amount'),
  '138': row('not_permitted', 'The Adyen merchant account does not take this currency'),
  '167': row('not_found', 'Adyen does not know this payment'),
  '800': row('not_found', 'Adyen does not know this stored card'),
  '901': row('credentials_refused', 'Adyen does not know this merchant account for the API key'),
};

/**
 * Answers of /payments that wait for the card holder. With the payer's authentication asked for, a
 * RedirectShopper is a challenge (connector.ts); otherwise the card is refused as needing it.
 */
const AUTHENTICATION_RESULTS = new Set(['RedirectShopper', 'IdentifyShopper', 'ChallengeShopper', 'PresentToShopper']);

/**
 * Answers of /payments that leave the outcome open (Adyen decides later, or authorised part of the
 * amount): the connector reports an unknown outcome, so the gateway reverses the attempt.
 */
const UNDECIDED_RESULTS = new Set(['Pending', 'Received', 'PartiallyAuthorised']);

const failureOf = (code: string, { category, retryable, message }: Row): ProviderFailure => ({
  category,
  retryable,
  gatewayCode: code,
  gatewayMessage: message,
});

/** Whether Adyen holds the payment waiting for the card holder (to be cancelled when nobody will be sent). */
export const awaitsShopper = (resultCode: string) => AUTHENTICATION_RESULTS.has(resultCode);

/** Whether a payment that waited for the payer is still undecided after /payments/details. */
export const undecided = (resultCode: string) => UNDECIDED_RESULTS.has(resultCode) || AUTHENTICATION_RESULTS.has(resultCode);

/** The failure for a /payments answer other than Authorised. */
export function paymentFailure(resultCode: string, refusalReasonCode: string | undefined): ProviderFailure {
  if (AUTHENTICATION_RESULTS.has(resultCode)) {
    return failureOf(resultCode, row('authentication_required', 'The card needs 3-D Secure authentication'));
  }
  if (UNDECIDED_RESULTS.has(resultCode)) {
    return failureOf(resultCode, row('timeout', 'Adyen has not decided the payment; the gateway cancels it', true));
  }
  const known = refusalReasonCode === undefined ? undefined : REFUSALS[refusalReasonCode];
  if (known) return failureOf(`REFUSED_${refusalReasonCode}`, known);
  if (resultCode === 'Error') return failureOf('Error', row('processor_error', 'Adyen could not process the payment', true));
  return failureOf(`REFUSED_${refusalReasonCode ?? resultCode}`, row('do_not_honour', 'Refused by the issuer'));
}

/**
 * The failure for a /payments/details answer that ends a payment which waited for the payer: as for
 * /payments, but Cancelled means the payer never finished authenticating (the issuer's refusals
 * after a challenge keep their own rows: 11 "3D Not Authenticated", or 2 "Refused" after a pass).
 */
export function detailsFailure(resultCode: string, refusalReasonCode: string | undefined): ProviderFailure {
  if (resultCode === 'Cancelled') {
    return failureOf('Cancelled', row('authentication_required', 'The payment was cancelled before 3-D Secure authentication ended'));
  }
  return paymentFailure(resultCode, refusalReasonCode);
}

/** The failure for a refusal reported in a notification, by Adyen's reason text. */
export function refusalByReason(reason: string | undefined): ProviderFailure {
  const entry = Object.entries(REFUSALS).find(([, known]) => known.adyenReason.toLowerCase() === reason?.trim().toLowerCase());
  return entry ? failureOf(`REFUSED_${entry[0]}`, entry[1]) : failureOf('REFUSED', row('do_not_honour', 'Refused by the issuer'));
}

/** The failure for an HTTP error answer. */
export function errorFailure(status: number, errorCode: string | undefined, transient: boolean): ProviderFailure {
  if (errorCode === '704') {
    return transient
      ? failureOf('ERROR_704', row('processor_error', 'Adyen is still processing the same request', true))
      : failureOf('ERROR_704', row('invalid_request', 'Adyen refused an idempotency key already used for another request'));
  }
  const known = errorCode === undefined ? undefined : ERRORS[errorCode];
  if (known) return failureOf(`ERROR_${errorCode}`, known);
  if (status === 401 || status === 403) return failureOf(`HTTP_${status}`, row('credentials_refused', 'Adyen refused the API key'));
  if (status >= 500) return failureOf(`HTTP_${status}`, row('processor_error', 'Adyen had an internal error', true));
  return failureOf(`HTTP_${status}`, row('invalid_request', 'Adyen refused the request as invalid'));
}

/** A notification of a modification that failed. */
export function modificationFailure(eventCode: string): ProviderFailure {
  return failureOf(eventCode, row('processor_error', `Adyen reported ${eventCode.toLowerCase().replaceAll('_', ' ')} as failed`));
}
