export type {
  Authorisation,
  AuthoriseRequest,
  Capture,
  CaptureRequest,
  CardDetails,
  CardSummary,
  Debit,
  DebitAccount,
  DebitRequest,
  FailureCategory,
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
  VoidRequest,
  WalletPaymentData,
} from './connector.js';
export { createSimulatedConnector, type SimulatedConnectorConfig } from './simulated-connector.js';
export type { AuthorisationStatus, LedgerAuthorisation, LedgerDebit, SimulatorLedger } from './simulator/ledger.js';
export type { LedgerOperation, OperationKind } from './simulator/operations.js';
export type { ResponseCode } from './simulator/response-codes.js';
export { startSimulator, type Simulator, type SimulatorOptions } from './simulator/server.js';
export { DECLINED_PAY_ID, TEST_BANK_ACCOUNTS, type TestBankAccount } from './simulator/test-accounts.js';
export { TEST_CARDS, type TestCard, type TestCardOutcome } from './simulator/test-cards.js';
