export type {
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationResultRequest,
  Authorisation,
  AttemptParameters,
  AuthoriseRequest,
  BrowserInfo,
  Challenge,
  ExternalThreeDs,
  ProviderNotificationOutcome,
  ThreeDsOutcome,
  Capture,
  CaptureRequest,
  CardDetails,
  CardSummary,
  CredentialCheck,
  Debit,
  DebitAccount,
  DebitRequest,
  FailureCategory,
  Modification,
  NetworkToken,
  PaymentSource,
  PaymentState,
  PayToAgreement,
  PayToAgreementRequest,
  ProviderConnector,
  ProviderFailure,
  ProviderResult,
  Refund,
  RefundRequest,
  ReverseRequest,
  StoreCardRequest,
  StoredCard,
  StoredCardRef,
  VoidRequest,
  WalletPaymentData,
} from './connector.js';
export { createAdyenConnector, type AdyenConnectorConfig } from './adyen/connector.js';
export { ADYEN_CURRENCIES, toAdyenUnits } from './adyen/currencies.js';
export { ADYEN, ADYEN_API_VERSION } from './adyen/type.js';
export { CHECKOUT } from './checkout/type.js';
export { createCheckoutConnector, type CheckoutConnectorConfig } from './checkout/connector.js';
export { checkoutSignature } from './checkout/notifications.js';
export { createSimulatedConnector, type SimulatedConnectorConfig } from './dummy/connector.js';
export type { AuthorisationStatus, LedgerAuthorisation, LedgerDebit, SimulatorLedger } from './dummy/simulator/ledger.js';
export type { LedgerOperation, OperationKind } from './dummy/simulator/operations.js';
export type { ResponseCode } from './dummy/simulator/response-codes.js';
export { startSimulator, type Simulator, type SimulatorOptions } from './dummy/simulator/server.js';
export { DECLINED_PAY_ID, TEST_BANK_ACCOUNTS, type TestBankAccount } from './dummy/simulator/test-accounts.js';
export { TEST_CARDS, type TestCard, type TestCardOutcome } from './dummy/simulator/test-cards.js';
export {
  CARD_OPERATIONS,
  failure,
  readParameters,
  rescaleMinorUnits,
  rescaleUnits,
  unsupported,
  UNSUPPORTED_CODE,
  type ConnectorOptions,
  type Environment,
  type NotificationEvent,
  type NotificationFormat,
  type NotificationRead,
  type NotificationRequest,
  type ParameterCheck,
  type ParameterSpec,
  type ProviderNotification,
  type ProviderOperation,
  type ProviderType,
} from './provider-type.js';
export { PROVIDER_TYPES, providerType } from './registry.js';
export { STRIPE } from './stripe/type.js';
export { NAB_TRANSACT } from './nab_transact/type.js';
export { NAB_CURRENCIES_VARIABLE } from './nab_transact/currencies.js';
export { simulatedIssuerPage, type IssuerPageAnswer } from './dummy/issuer-page.js';
