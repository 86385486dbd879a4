import type { FailureCategory, ProviderFailure } from '../connector.js';

/**
 * NAB Transact's answers in the gateway's terms: failure category, whether the same call may
 * succeed later, and the gateway's own message (NAB's `responseText` is never passed on).
 * Keys are NAB's bank response codes (two digits, from the card issuer), its gateway response codes
 * (three digits, 1xx–3xx: NAB refused the transaction itself), `status/<code>` for a message-level
 * `Status/statusCode` other than 000 (NAB refused the whole message), and the connector's own names
 * for answers without a code. docs/providers/nab_transact.md lists every row, and codes.test.ts
 * holds the two together. Codes as NAB's XML API guide and its "Response Codes" sheet list them.
 */

interface Row {
  category: FailureCategory;
  retryable: boolean;
  message: string;
}

const row = (category: FailureCategory, message: string, retryable = false): Row => ({ category, retryable, message });

/** Bank response codes NAB counts as approved (`approved` Yes): 00, 08 honour with id, 11 VIP, 16 approved, 77 approved (ANZ). */
export const APPROVED_CODES: readonly string[] = ['00', '08', '11', '16', '77'];

export const NAB_CODES = {
  // Bank response codes: the issuer's decline.
  '01': row('do_not_honour', 'Refer to the card issuer'),
  '03': row('not_permitted', 'The merchant facility is not set up for this card'),
  '04': row('stolen_card', 'The card may not be used (pick up card)'),
  '05': row('do_not_honour', 'Declined by the card issuer: do not honour'),
  '06': row('processor_error', 'The card issuer reported an error; try again', true),
  '12': row('invalid_request', 'The card issuer refused the transaction as invalid'),
  '13': row('invalid_amount', 'The card issuer refused the amount'),
  '14': row('invalid_card', 'The card number is invalid'),
  '19': row('processor_error', 'The card issuer asks for the transaction again', true),
  '21': row('do_not_honour', 'The card issuer took no action'),
  '22': row('processor_error', 'Suspected malfunction at the card issuer; try again', true),
  '30': row('invalid_request', 'The card issuer refused the format of the transaction'),
  '31': row('invalid_card', 'The card’s bank is not supported'),
  '33': row('expired_card', 'The card has expired'),
  '34': row('suspected_fraud', 'Declined as suspected fraud'),
  '35': row('stolen_card', 'The card may not be used (contact acquirer)'),
  '36': row('stolen_card', 'The card is restricted'),
  '37': row('suspected_fraud', 'Declined: the card issuer’s security asks to be called'),
  '39': row('invalid_card', 'The card has no credit account'),
  '41': row('stolen_card', 'The card is reported lost'),
  '43': row('stolen_card', 'The card is reported stolen'),
  '51': row('insufficient_funds', 'Insufficient funds'),
  '54': row('expired_card', 'The card has expired'),
  '56': row('invalid_card', 'The card issuer has no record of the card'),
  '57': row('not_permitted', 'The card may not be used for this kind of transaction'),
  '58': row('not_permitted', 'The merchant facility may not make this kind of transaction'),
  '59': row('suspected_fraud', 'Declined as suspected fraud'),
  '61': row('over_limit', 'The card’s limit is exceeded'),
  '62': row('stolen_card', 'The card is restricted'),
  '65': row('over_limit', 'The card’s limit of transactions is exceeded'),
  '91': row('processor_error', 'The card issuer could not be reached; try again', true),
  '92': row('processor_error', 'The card’s bank could not be found; try again', true),
  '94': row('invalid_request', 'A duplicate transaction'),
  '96': row('processor_error', 'A system malfunction at the card network; try again', true),
  // Gateway response codes: NAB Transact refused the transaction itself.
  '100': row('invalid_amount', 'NAB refused the amount'),
  '101': row('invalid_card', 'The card number is invalid'),
  '102': row('invalid_request', 'The card’s expiry date is invalid'),
  '103': row('invalid_request', 'NAB refused the purchase order number'),
  '104': row('credentials_refused', 'NAB refused the merchant id'),
  '106': row('not_permitted', 'The merchant facility does not take this card type'),
  '109': row('invalid_cvc', 'The CCV is invalid'),
  '110': row('processor_error', 'NAB could not reach the bank; try again', true),
  '111': row('timeout', 'NAB lost the bank’s connection during the transaction; outcome unknown', true),
  '112': row('timeout', 'The bank did not answer NAB in time; outcome unknown', true),
  '113': row('processor_error', 'A database error at NAB; try again', true),
  '115': row('processor_error', 'An unknown error at NAB; try again', true),
  '116': row('not_permitted', 'The merchant facility is not enabled for this transaction type'),
  '117': row('invalid_request', 'NAB refused the format of the message'),
  '124': row('not_permitted', 'The merchant facility does not take this currency'),
  '126': row('invalid_request', 'NAB refused the transaction as invalid'),
  '131': row('invalid_request', 'NAB refused a number in the message'),
  '132': row('invalid_request', 'NAB refused a date in the message'),
  '133': row('not_found', 'NAB does not know the original transaction'),
  '134': row('invalid_amount', 'The amount is more than the original transaction has left'),
  '135': row('invalid_request', 'The original transaction is already fully refunded'),
  '137': row('invalid_request', 'The original transaction cannot be reversed'),
  '346': row('invalid_request', 'NAB already keeps a card under this customer reference'),
  // Message-level status codes: NAB refused the whole message.
  'status/504': row('credentials_refused', 'NAB refused the merchant id'),
  'status/505': row('invalid_request', 'NAB refused the address called'),
  'status/510': row('processor_error', 'NAB could not reach the bank; try again', true),
  'status/511': row('timeout', 'NAB lost the bank’s connection; outcome unknown', true),
  'status/512': row('timeout', 'The bank did not answer NAB in time; outcome unknown', true),
  'status/513': row('processor_error', 'A database error at NAB; try again', true),
  'status/515': row('processor_error', 'An unknown error at NAB; try again', true),
  'status/516': row('not_permitted', 'The merchant facility is not enabled for this request type'),
  'status/517': row('invalid_request', 'NAB refused the format of the message'),
  'status/524': row('timeout', 'NAB did not get the bank’s answer; outcome unknown', true),
  'status/545': row('processor_error', 'NAB is down for maintenance; try again later', true),
  'status/550': row('credentials_refused', 'NAB refused the password'),
  'status/575': row('not_permitted', 'NAB does not offer this request'),
  'status/595': row('credentials_refused', 'The merchant facility is disabled at NAB'),
  // Answers without a code of their own. No definite answer from NAB (none in time, the connection
  // lost, an error page, an answer that is not NAB's) is a `timeout`: NAB may have done it.
  AMOUNT: row('invalid_amount', 'NAB does not take this currency for the merchant facility'),
  DECLINED: row('do_not_honour', 'Declined by the card issuer'),
  STATUS: row('processor_error', 'NAB refused the message; try again', true),
  TIMEOUT: row('timeout', 'No answer from NAB in time; outcome unknown', true),
  NETWORK: row('timeout', 'The connection to NAB was lost before its answer; outcome unknown', true),
  HTTP_5XX: row('timeout', 'NAB answered with a server error; outcome unknown', true),
  BAD_RESPONSE: row('timeout', 'Unreadable answer from NAB; outcome unknown', true),
  UNREACHABLE: row('processor_error', 'Could not connect to NAB: nothing was sent; try again', true),
  NOT_NAB_PAYMENT: row('invalid_request', 'The charge names no NAB payment (or pre-authorisation) this gateway made: nothing was sent'),
  OUTCOME_UNKNOWN: row(
    'outcome_unknown',
    'NAB never answered the payment and cannot be asked about it: its outcome at NAB is unknown; check the transaction in NAB Transact',
  ),
} satisfies Record<string, Row>;

export type NabCode = keyof typeof NAB_CODES;

/**
 * Whether a failure leaves the call's outcome at NAB unknown (category `timeout`): no definite answer
 * came, or NAB's own answer says the bank's was lost (111, 112, status 511, 512, 524). NAB has no
 * idempotency key: what it may have done can be reversed by its txnID, never safely sent again.
 */
export const outcomeUnknown = (failure: ProviderFailure): boolean => failure.category === 'timeout';

export function failureFor(code: NabCode): ProviderFailure {
  const { category, retryable, message } = NAB_CODES[code];
  return { category, retryable, gatewayCode: code, gatewayMessage: message };
}

const known = (key: string): key is NabCode => Object.hasOwn(NAB_CODES, key);

/** The failure of a transaction NAB did not approve, by its response code (an unknown code is a decline). */
export function declineFor(responseCode: string | undefined): ProviderFailure {
  return failureFor(responseCode !== undefined && known(responseCode) ? responseCode : 'DECLINED');
}

/** The failure of a message NAB refused as a whole (`Status/statusCode` other than 000). */
export function statusFailure(statusCode: string): ProviderFailure {
  const key = `status/${statusCode}`;
  return failureFor(known(key) ? key : 'STATUS');
}
