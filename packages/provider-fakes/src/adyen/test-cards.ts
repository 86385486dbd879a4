import { passesLuhn } from '@gateway/core';
/**
 * Adyen's test data, as its test environment answers it
 * (docs.adyen.com/development-resources/test-cards and …/testing/result-codes).
 */

/** Expiry every Adyen test card needs; another expiry (or a wrong CVC) is refused as "Refused". */
export const TEST_EXPIRY = { month: '03', year: '2030' } as const;

export interface TestCard {
  number: string;
  brand: 'visa' | 'mc' | 'amex';
  cvc: string;
  /**
   * The issuer authenticates a shopper-present payment (3-D Secure 2): with a challenge on its page,
   * or without one (frictionless, only when the payment takes part in 3-D Secure 2 on the web).
   */
  threeDSecure?: 'challenge' | 'frictionless';
  /** Adyen's redirect to the challenge is a form POSTed with `data` rather than a GET. */
  challengeByPost?: boolean;
  /** The issuer refuses the payment ("Refused", code 2) once the challenge was passed. */
  refusedAfterChallenge?: boolean;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', cvc: '737' },
  { number: '5555444433331111', brand: 'mc', cvc: '737' },
  { number: '370000000000002', brand: 'amex', cvc: '7373' },
  // Adyen's 3-D Secure 2 test cards: a shopper-present payment answers RedirectShopper to a challenge.
  { number: '4212345678901237', brand: 'visa', cvc: '737', threeDSecure: 'challenge' },
  { number: '5454545454545454', brand: 'mc', cvc: '737', threeDSecure: 'challenge', challengeByPost: true },
  { number: '371449635398431', brand: 'amex', cvc: '7373', threeDSecure: 'challenge' },
  // The fake's own (the numbers the simulated acquirer uses for the same cases): authenticated
  // without a challenge, and refused by the issuer after a passed challenge.
  { number: '4000000000003055', brand: 'visa', cvc: '737', threeDSecure: 'frictionless' },
  { number: '4000008400001629', brand: 'visa', cvc: '737', threeDSecure: 'challenge', refusedAfterChallenge: true },
];

/** The password Adyen's test issuer page takes to complete a challenge. */
export const CHALLENGE_PASSWORD = 'password';

/** RedirectShopper: the payment waits for the shopper's 3-D Secure challenge. */
export type ResultCode = 'Authorised' | 'Refused' | 'Error' | 'Cancelled' | 'Received' | 'RedirectShopper';

export interface TestOutcome {
  refusalReasonCode: string;
  /** Adyen's short text, as it answers it (the connector never shows it). */
  refusalReason: string;
  resultCode: ResultCode;
}

/**
 * A payment whose card holder name is one of these names gets that outcome (Adyen's "testing with
 * card holder name"; the name may be followed by " : <scheme code> : <raw reason>"). Names up to
 * WITHDRAWAL_COUNT_EXCEEDED are Adyen's table; the later ones follow its pattern.
 */
export const HOLDER_NAME_OUTCOMES: Readonly<Record<string, TestOutcome>> = Object.fromEntries(
  (
    [
      ['UNKNOWN', '0', 'Unknown', 'Error'],
      ['DECLINED', '2', 'Refused', 'Refused'],
      ['REFERRAL', '3', 'Referral', 'Refused'],
      ['ERROR', '4', 'Acquirer Error', 'Error'],
      ['BLOCK_CARD', '5', 'Blocked Card', 'Refused'],
      ['CARD_EXPIRED', '6', 'Expired Card', 'Refused'],
      ['INVALID_AMOUNT', '7', 'Invalid Amount', 'Refused'],
      ['INVALID_CARD_NUMBER', '8', 'Invalid Card Number', 'Refused'],
      ['ISSUER_UNAVAILABLE', '9', 'Issuer Unavailable', 'Refused'],
      ['NOT_SUPPORTED', '10', 'Not supported', 'Refused'],
      ['NOT_3D_AUTHENTICATED', '11', '3D Not Authenticated', 'Refused'],
      ['NOT_ENOUGH_BALANCE', '12', 'Not enough balance', 'Refused'],
      ['PENDING', '13', '', 'Received'],
      ['ACQUIRER_FRAUD', '14', 'Acquirer Fraud', 'Refused'],
      ['CANCELLED', '15', 'Cancelled', 'Refused'],
      ['SHOPPER_CANCELLED', '16', 'Shopper Cancelled', 'Refused'],
      ['INVALID_PIN', '17', 'Invalid Pin', 'Refused'],
      ['PIN_TRIES_EXCEEDED', '18', 'Pin tries exceeded', 'Refused'],
      ['PIN_VALIDATION_NOT_POSSIBLE', '19', 'Pin validation not possible', 'Refused'],
      ['FRAUD', '20', 'FRAUD', 'Refused'],
      ['NOT_SUBMITTED', '21', 'Not Submitted', 'Refused'],
      ['FRAUD_CANCELLED', '22', 'FRAUD-CANCELLED', 'Cancelled'],
      ['TRANSACTION_NOT_PERMITTED', '23', 'Transaction Not Permitted', 'Refused'],
      ['CVC_DECLINED', '24', 'CVC Declined', 'Refused'],
      ['RESTRICTED_CARD', '25', 'Restricted Card', 'Refused'],
      ['REVOCATION_OF_AUTH', '26', 'Revocation Of Auth', 'Refused'],
      ['DECLINED_NON_GENERIC', '27', 'Declined Non Generic', 'Refused'],
      ['WITHDRAWAL_AMOUNT_EXCEEDED', '28', 'Withdrawal amount exceeded', 'Refused'],
      ['WITHDRAWAL_COUNT_EXCEEDED', '29', 'Withdrawal count exceeded', 'Refused'],
      ['ISSUER_SUSPECTED_FRAUD', '31', 'Issuer Suspected Fraud', 'Refused'],
      ['AVS_DECLINED', '32', 'AVS Declined', 'Refused'],
      ['CARD_REQUIRES_ONLINE_PIN', '33', 'Card requires online pin', 'Refused'],
      ['NO_CHECKING_ACCOUNT_AVAILABLE_ON_CARD', '34', 'No checking account available on Card', 'Refused'],
      ['NO_SAVINGS_ACCOUNT_AVAILABLE_ON_CARD', '35', 'No savings account available on Card', 'Refused'],
      ['MOBILE_PIN_REQUIRED', '36', 'Mobile PIN required', 'Refused'],
      ['CONTACTLESS_FALLBACK', '37', 'Contactless fallback', 'Refused'],
      ['AUTHENTICATION_REQUIRED', '38', 'Authentication required', 'Refused'],
    ] as const
  ).map(([name, refusalReasonCode, refusalReason, resultCode]) => [name, { refusalReasonCode, refusalReason, resultCode }]),
);

/** Card holder names that make a later modification of the payment fail (Adyen's "test failed modifications"). */
export const FAILING_MODIFICATION_NAMES = { capture: 'capture failed', refund: 'refund failed' } as const;

/** What a payment's card holder name asks of the test environment. */
export function holderNameOutcome(holderName: string | undefined): TestOutcome | undefined {
  const name = holderName?.split(' : ')[0]?.trim();
  return name === undefined ? undefined : HOLDER_NAME_OUTCOMES[name];
}

/** A number the provider takes as a card number: 12 to 19 digits that pass the Luhn check. */
export function luhnValid(number: string): boolean {
  return /^\d{12,19}$/.test(number) && passesLuhn(number);
}

export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mc';
  return 'card';
}
