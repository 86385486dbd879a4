import type { FailureCategory, ProviderFailure } from '../connector.js';

/**
 * Checkout.com's response codes and error codes as failures. The messages are the gateway's own:
 * Checkout.com's free text (response_summary) is never passed on. docs/providers/checkout.md shows
 * the same table; every row is tested (codes.test.ts).
 */

interface Row {
  category: FailureCategory;
  retryable: boolean;
  message: string;
}

const row = (category: FailureCategory, message: string, retryable = false): Row => ({ category, retryable, message });

/** Response codes that approve (checkout.com/docs/developer-resources/codes/api-response-codes). */
export const APPROVED_CODES: ReadonlySet<string> = new Set(['10000', '10008', '10011', '10076', '10077', '10081', '10100']);

/** Declines by `response_code` (20xxx soft, 30xxx hard, 4xxxx risk), with Checkout.com's summary beside them. */
export const RESPONSE_CODES: Readonly<Record<string, Row & { summary: string }>> = {
  '20001': { summary: 'Refer to card issuer', ...row('do_not_honour', 'The issuer asks for a referral') },
  '20002': { summary: 'Refer to card issuer - special conditions', ...row('do_not_honour', 'The issuer asks for a referral') },
  '20003': { summary: 'Invalid merchant or service provider', ...row('not_permitted', 'The acquirer refused the merchant') },
  '20005': { summary: 'Declined - Do not honour', ...row('do_not_honour', 'Refused by the issuer') },
  '20006': { summary: 'Error / Invalid request parameters', ...row('processor_error', 'The issuer could not process the payment', true) },
  '20012': { summary: 'Invalid transaction', ...row('do_not_honour', 'The issuer does not allow this kind of payment') },
  '20013': { summary: 'Invalid value/amount', ...row('invalid_amount', 'The issuer refused the amount') },
  '20014': { summary: 'Invalid account number (no such number)', ...row('invalid_card', 'Invalid card number') },
  '20019': { summary: 'Re-enter transaction', ...row('processor_error', 'The issuer asks for the payment to be made again', true) },
  '20046': { summary: 'Closed account', ...row('invalid_card', 'The card account is closed') },
  '20051': { summary: 'Insufficient funds', ...row('insufficient_funds', 'Insufficient funds') },
  '20054': { summary: 'Expired card', ...row('expired_card', 'The card has expired') },
  '20055': { summary: 'Incorrect PIN', ...row('do_not_honour', 'Invalid PIN') },
  '20057': { summary: 'Transaction not permitted to cardholder', ...row('do_not_honour', 'The card may not be used for this payment') },
  '20058': { summary: 'Transaction not permitted to terminal', ...row('not_permitted', 'The acquirer may not make this payment') },
  '20059': { summary: 'Suspected fraud', ...row('suspected_fraud', 'The issuer suspects fraud') },
  '20061': { summary: 'Activity amount limit exceeded', ...row('insufficient_funds', 'The card limit would be exceeded') },
  '20062': { summary: 'Restricted card', ...row('stolen_card', 'The card is restricted') },
  '20063': { summary: 'Security violation', ...row('suspected_fraud', 'Refused for security reasons') },
  '20065': { summary: 'Activity count limit exceeded', ...row('do_not_honour', 'Too many payments on the card') },
  '20068': { summary: 'Response received too late / timeout', ...row('processor_error', 'The issuer answered too late', true) },
  '20075': { summary: 'Allowable number of PIN tries exceeded', ...row('do_not_honour', 'Too many PIN attempts') },
  '20078': { summary: 'Blocked, first use', ...row('do_not_honour', 'The card is not yet unblocked for use') },
  '20082': { summary: 'No security model / invalid CVV', ...row('invalid_cvc', 'The CVC was declined') },
  '20087': { summary: 'Bad track data (invalid CVV and/or expiry date)', ...row('invalid_cvc', 'The CVC or expiry date was declined') },
  '20091': { summary: 'Issuer unavailable or switch inoperative', ...row('processor_error', 'The issuer could not be reached', true) },
  '20096': { summary: 'System malfunction', ...row('processor_error', 'The card network had an error', true) },
  '200N7': { summary: 'Decline for CVV2 failure', ...row('invalid_cvc', 'The CVC was declined') },
  '200R3': { summary: 'Revocation of all authorizations', ...row('do_not_honour', 'The card holder stopped all payments to the merchant') },
  '20150': { summary: 'Card not 3D Secure enabled', ...row('authentication_required', 'The card cannot be authenticated with 3-D Secure') },
  '20151': {
    summary: 'Cardholder failed 3DS authentication',
    ...row('authentication_required', '3-D Secure authentication did not succeed'),
  },
  '20152': {
    summary: 'Initial 3DS transaction not completed within 15 minutes',
    ...row('authentication_required', '3-D Secure authentication was not finished in time'),
  },
  '20153': { summary: '3DS system malfunction', ...row('processor_error', '3-D Secure could not be run', true) },
  '20154': { summary: '3DS authentication required', ...row('authentication_required', 'The issuer requires 3-D Secure authentication') },
  '30004': { summary: 'Pick up card (no fraud)', ...row('stolen_card', 'The card must be retained') },
  '30007': { summary: 'Pick up card - special conditions', ...row('stolen_card', 'The card must be retained') },
  '30015': { summary: 'No such issuer', ...row('invalid_card', 'Invalid card number') },
  '30041': { summary: 'Lost card - pick up', ...row('stolen_card', 'The card is reported lost') },
  '30043': { summary: 'Stolen card - pick up', ...row('stolen_card', 'The card is reported stolen') },
  '40101': { summary: 'Risk blocked transaction', ...row('suspected_fraud', 'Refused by risk checks') },
  '40201': { summary: 'Gateway reject - card number blocklist', ...row('suspected_fraud', 'Refused by risk checks') },
  '40202': { summary: 'Gateway reject - IP address blocklist', ...row('suspected_fraud', 'Refused by risk checks') },
  '40203': { summary: 'Gateway reject - email blocklist', ...row('suspected_fraud', 'Refused by risk checks') },
  '40204': { summary: 'Gateway reject - phone number blocklist', ...row('suspected_fraud', 'Refused by risk checks') },
  '40205': { summary: 'Gateway reject - BIN number blocklist', ...row('suspected_fraud', 'Refused by risk checks') },
};

/** By the first entry of `error_codes` of a 422 answer (checkout.com/docs/developer-resources/codes/error-codes). */
export const ERROR_CODES: Readonly<Record<string, Row>> = {
  card_number_invalid: row('invalid_card', 'Invalid card number'),
  card_expired: row('expired_card', 'The card has expired'),
  card_expiry_month_invalid: row('invalid_card', 'Invalid expiry date'),
  card_expiry_year_invalid: row('invalid_card', 'Invalid expiry date'),
  cvv_invalid: row('invalid_cvc', 'The CVC has the wrong length'),
  amount_invalid: row('invalid_amount', 'Checkout.com refused the amount'),
  currency_not_supported: row('not_permitted', 'The processing channel does not take this currency'),
  processing_channel_id_invalid: row('credentials_refused', 'Checkout.com does not know this processing channel for the key'),
  source_id_invalid: row('not_found', 'Checkout.com does not know this stored card'),
  instrument_not_found: row('not_found', 'Checkout.com does not know this stored card'),
  payment_not_found: row('not_found', 'Checkout.com does not know this payment'),
  action_not_allowed: row('invalid_request', 'Checkout.com does not allow this on the payment now'),
  refund_amount_exceeds_balance: row('invalid_amount', 'More than the captured amount left to refund'),
  capture_value_greater_than_authorized: row('invalid_amount', 'More than the authorised amount'),
  card_details_not_allowed: row(
    'not_permitted',
    'The Checkout.com account is not approved for raw card numbers: use instruments from Frames or Flow',
  ),
};

const failureOf = (code: string, { category, retryable, message }: Row): ProviderFailure => ({
  category,
  retryable,
  gatewayCode: code,
  gatewayMessage: message,
});

export const approved = (responseCode: string | undefined) => responseCode !== undefined && APPROVED_CODES.has(responseCode);

/** The failure for a payment Checkout.com declined, by its response code. */
export function declineFailure(responseCode: string | undefined): ProviderFailure {
  const known = responseCode === undefined ? undefined : RESPONSE_CODES[responseCode];
  if (known) return failureOf(responseCode!, known);
  // Outside the table: a 4xxxx is a risk rule of the merchant's, a 3xxxx a hard decline, the rest soft.
  if (responseCode?.startsWith('4')) return failureOf(responseCode, row('suspected_fraud', 'Refused by risk checks'));
  if (responseCode?.startsWith('3')) return failureOf(responseCode, row('invalid_card', 'The issuer refused the card for good'));
  return failureOf(responseCode ?? 'DECLINED', row('do_not_honour', 'Refused by the issuer'));
}

/** The failure for an HTTP error answer (`error_codes` of a 422, else the status). */
export function errorFailure(status: number, errorCodes: readonly string[]): ProviderFailure {
  const code = errorCodes.find((c) => ERROR_CODES[c]);
  if (code) return failureOf(code, ERROR_CODES[code]!);
  if (status === 401 || status === 403)
    return failureOf(`HTTP_${status}`, row('credentials_refused', 'Checkout.com refused the secret key'));
  if (status === 404) return failureOf('HTTP_404', row('not_found', 'Checkout.com does not know this payment or card'));
  if (status === 409)
    return failureOf('HTTP_409', row('invalid_request', 'Checkout.com refused an idempotency key already used for another request'));
  if (status === 429) return failureOf('HTTP_429', row('processor_error', 'Checkout.com asks for fewer requests', true));
  if (status >= 500) return failureOf(`HTTP_${status}`, row('processor_error', 'Checkout.com had an internal error', true));
  return failureOf(`HTTP_${status}`, row('invalid_request', 'Checkout.com refused the request as invalid'));
}

/** A notification of a capture, void or refund Checkout.com declined. */
export function modificationFailure(eventType: string): ProviderFailure {
  return failureOf(eventType, row('processor_error', `Checkout.com reported ${eventType.replaceAll('_', ' ')}`));
}
