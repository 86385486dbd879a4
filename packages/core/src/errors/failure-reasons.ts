import { ERROR_NAMES, ERRORS, type ErrorName } from './catalogue';

/** Why a payment failed, for staff: the reason in a few words, what it means, and what the payer can do. */
export interface FailureReason {
  /** "Declined: insufficient funds". */
  summary: string;
  meaning: string;
  payerCan: string;
}

const declined = (reason: string, meaning: string, payerCan: string): FailureReason => ({
  summary: `Declined: ${reason}`,
  meaning,
  payerCan,
});

const failed = (reason: string, meaning: string, payerCan: string): FailureReason => ({ summary: `Failed: ${reason}`, meaning, payerCan });

/**
 * The failures a payment attempt ends with (the errors a provider's refusal maps to), explained.
 * A card declined is the issuer's decision; a payment failed is the provider's or the gateway's.
 */
const REASONS: Partial<Record<ErrorName, FailureReason>> = {
  InsufficientFunds: declined(
    'insufficient funds',
    'The card’s account did not have enough money or credit left for this amount.',
    'Pay a smaller amount, add funds to the account, or use another card.',
  ),
  ExpiredCard: declined(
    'expired card',
    'The card is past its expiry date, or the expiry date entered is not the card’s.',
    'Check the expiry date printed on the card, or use another card.',
  ),
  CardBlocked: declined(
    'card blocked',
    'The issuer will not let this card pay: reported lost or stolen, restricted, or suspected of fraud.',
    'Use another card, and ask their bank about this one. Retrying the same card will not succeed.',
  ),
  InvalidCardNumber: declined(
    'invalid card',
    'The card number is wrong, or the card cannot make this kind of payment.',
    'Check the card number, or use another card.',
  ),
  InvalidCcv: declined(
    'wrong security code',
    'The security code (CCV) does not match the card.',
    'Enter the 3 or 4 digits printed on the card again.',
  ),
  TransactionError: declined(
    'refused by the issuer',
    'The card’s bank refused the payment without giving a reason (“do not honour”).',
    'Use another card, or ask their bank why it refused.',
  ),
  ThreeDSecureFailed: declined(
    'authentication failed',
    'The card’s bank asked for 3-D Secure authentication, and it failed or did not take place.',
    'Pay again and complete their bank’s check, or use another card.',
  ),
  InvalidAmount: declined(
    'over a limit',
    'The amount is above a limit of the card, or of the provider.',
    'Pay a smaller amount, or use another card.',
  ),
  ProviderServiceError: failed(
    'the provider could not process it',
    'The provider or the card’s bank had a technical problem; the payer was not charged.',
    'Try again in a few minutes.',
  ),
  GatewayTimeout: failed(
    'no answer from the provider',
    'The provider did not answer in time, so the payment was cancelled; the payer was not charged.',
    'Try again in a few minutes.',
  ),
  FeatureUnavailable: failed(
    'not available for this payment',
    'The provider account does not take this payment (its currency, card type or a feature it needs).',
    'Use another payment method. Staff can check which provider took it and what that account allows.',
  ),
  InvalidPaymentDetails: failed(
    'details refused by the provider',
    'The provider refused the details of the payment as they were sent.',
    'Check the details and try again, or use another payment method.',
  ),
  AccountNotAuthorised: failed(
    'provider credentials refused',
    'The provider refused the gateway’s credentials for this account; the payer is not at fault.',
    'Nothing yet: staff must correct the provider’s credentials, then the payer can try again.',
  ),
};

/**
 * The reason a payment failed with, from its error's catalogue code (the number `failedAttempts`
 * give as `errorCode`), or its name: explained for the failures providers answer, in the
 * catalogue's words for any other.
 */
export function failureReason(error: ErrorName | number | string): FailureReason {
  const name = typeof error === 'string' && !/^\d+$/.test(error) ? error : ERROR_NAMES[Number(error)];
  const known = name && Object.hasOwn(ERRORS, name) ? (name as ErrorName) : 'UnknownError';
  return (
    REASONS[known] ??
    failed(ERRORS[known].message.toLowerCase(), 'The payment did not go through.', 'Try again, or use another payment method.')
  );
}
