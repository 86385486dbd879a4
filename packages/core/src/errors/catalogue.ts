/**
 * The one error catalogue. Codes are the integers existing client SDKs map (index = code, 0–107;
 * the Java client cannot read higher codes). Each entry has the HTTP status we answer with, the
 * default message, and whether retrying the same request may succeed.
 */
export const ERROR_NAMES = [
  'NoError',
  'UnknownError',
  'InvalidAmount',
  'InvalidAuthoriseDetails',
  'InvalidCaptureDetails',
  'InvalidCardNumber',
  'InvalidCcv',
  'InvalidCountry',
  'InvalidCountryForTransfer',
  'InvalidExpiryDate',
  'InvalidPaymentDetails',
  'InvalidPaypalAccount',
  'InvalidRefundDetails',
  'InvalidVoidDetails',
  'ExpiredCard',
  'InsufficientFunds',
  'LocationNotSupported',
  'PaypalBillingAgreementCancelled',
  'ThreeDSecureFailed',
  'AccountEmailUnconfirmed',
  'AccountError',
  'AccountIsLockedOrClosed',
  'AccountNotAuthorised',
  'AccountRestricted',
  'AmountExceedsMaxAmountForPayToAgreement',
  'AmountTooLarge',
  'AuthenticationAuthorizationError',
  'BillingPostalCodeNotSupported',
  'CurrencyComplianceIssuesWithTransactions',
  'CurrencyNotSupported',
  'Duplicate',
  'DuplicateTransaction',
  'FeatureUnavailable',
  'PayToAgreementIsNotActive',
  'ProviderServiceError',
  'RateLimitingApplied',
  'ReceiverAccountLocked',
  'RetryLater',
  'SenderAccountIssue',
  'InvalidProviderId',
  'InvalidAuthentication',
  'InvalidEnvironment',
  'TokeniseCardError',
  'TransactionError',
  'NotSupportCharge',
  'UnableToRefund',
  'UnableToCharge',
  'UnableToCapture',
  'UnableToVoid',
  'UnableToAddCustomer',
  'NoTransactionFound',
  'InvalidOrExpiredToken',
  'InvalidCustomerId',
  'InvalidCharge',
  'InvalidChargeStatus',
  'InvalidCardLength',
  'InvalidPaymentMethodId',
  'InvalidPaymentMethod',
  'InvalidPaymentType',
  'InvalidThreeDSServerTransID',
  'InvalidTransferAmount',
  'InvalidReferenceId',
  'InvalidVaultId',
  'NoCardProvidersConfigured',
  'CustomerHasNoDefaultPaymentMethodId',
  'NoProviderFound',
  'NoVaultIdAssociatedWithThisPaymentMethod',
  'NoTransferInformationProvided',
  'TransferLargerThanOriginalCharge',
  'DuplicateGroupReference',
  'DuplicateTransferReference',
  'FeatureAuthoriseAndCaptureIsNotSupported',
  'InvalidCustomerIdRemoved',
  'InvalidPaymentMethodIdRemoved',
  'InvalidAmountMustBePositive',
  'FeatureVerifyPendingIsNotSupported',
  'InvalidAmountMaximumAvailableRefund',
  'InvalidCaptureAmountPassed',
  'FeaturePartialCaptureIsNotSupportedCaptureAmount',
  'AmountOutsideRangeForMerchant',
  'GatewayTimeout',
  'InvalidPaymentInformation',
  'CannotProvideBothExpireDateAndExpireSeconds',
  'InvalidExpireDateOrExpireSeconds',
  'InvalidChargeId',
  'CannotProvideBothVaultExpireDateAndVaultExpireSeconds',
  'InvalidVaultExpiryDate',
  'InvalidTokenId',
  'InvalidTransferId',
  'InvalidNotificationFormat',
  'ValidationError',
  'TokenVerificationNotSupported',
  'InvalidAddress',
  'CardBlocked',
  'Timeout',
  'VisIsNotSupported',
  'TheOrderInformationIsInvalid',
  'MetadataDoesNotContainRequiredFields',
  'FraudIsNotSupported',
  'CardIsNotEnrolledForVis',
  'ProviderNotSupported',
  'InvalidBatch',
  'InvalidBatchData',
  'DirectDebitNotSupported',
  'InvalidSubscriptionId',
  'NoDataToUpdateThePaymentMethod',
  'PaymentMethodMustBeOfTypeCard',
  'UnableToUpdateThePaymentMethod',
] as const;

export type ErrorName = (typeof ERROR_NAMES)[number];

export interface ErrorDefinition {
  readonly code: number;
  readonly http: number;
  readonly message: string;
  readonly retryable: boolean;
}

const HTTP_STATUS: Partial<Record<ErrorName, number>> = {
  UnknownError: 500,
  InvalidAuthentication: 401,
  AuthenticationAuthorizationError: 403,
  Duplicate: 409,
  RateLimitingApplied: 429,
  NoTransactionFound: 404,
};

const RETRYABLE: ReadonlySet<ErrorName> = new Set<ErrorName>([
  'ProviderServiceError',
  'RateLimitingApplied',
  'RetryLater',
  'GatewayTimeout',
  'Timeout',
]);

const MESSAGES: Partial<Record<ErrorName, string>> = {
  InvalidCcv: 'Invalid CCV',
  InvalidAuthentication: 'Invalid or missing secret key',
  InvalidThreeDSServerTransID: 'Invalid 3DS Server Transaction ID',
};

/** "InvalidCardNumber" → "Invalid Card Number". */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2');
}

export const ERRORS: Readonly<Record<ErrorName, ErrorDefinition>> = Object.fromEntries(
  ERROR_NAMES.map((name, code) => [
    name,
    { code, http: HTTP_STATUS[name] ?? 400, message: MESSAGES[name] ?? words(name), retryable: RETRYABLE.has(name) },
  ]),
) as Record<ErrorName, ErrorDefinition>;

export interface ApiErrorOptions {
  message?: string;
  http?: number;
  details?: Record<string, string>;
  gatewayCode?: string;
  gatewayMessage?: string;
  retryable?: boolean;
  /** When to come back, sent as Retry-After (a limit, a request still running). */
  retryAfterSeconds?: number;
}

/** An expected failure, rendered to clients as the API error body. */
export class ApiError extends Error {
  readonly errorName: ErrorName;
  readonly code: number;
  readonly http: number;
  readonly retryable: boolean;
  readonly details: Record<string, string> | undefined;
  readonly gatewayCode: string | undefined;
  readonly gatewayMessage: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(name: ErrorName, options: ApiErrorOptions = {}) {
    const definition = ERRORS[name];
    super(options.message ?? definition.message);
    this.name = 'ApiError';
    this.errorName = name;
    this.code = definition.code;
    this.http = options.http ?? definition.http;
    this.retryable = options.retryable ?? definition.retryable;
    this.details = options.details;
    this.gatewayCode = options.gatewayCode;
    this.gatewayMessage = options.gatewayMessage;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A 404 for an id the caller's account does not own (or that does not exist: the same answer). */
export function notFound(name: ErrorName, what: string): ApiError {
  return new ApiError(name, { http: 404, message: `${what} not found` });
}
