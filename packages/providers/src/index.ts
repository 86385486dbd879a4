export type {
  Authorisation,
  AuthoriseRequest,
  Capture,
  CaptureRequest,
  CardDetails,
  FailureCategory,
  ProviderConnector,
  ProviderFailure,
  ProviderResult,
  Refund,
  RefundRequest,
  ReverseRequest,
  VoidRequest,
} from './connector.js';
export { createSimulatedConnector, type SimulatedConnectorConfig } from './simulated-connector.js';
export type { AuthorisationStatus, LedgerAuthorisation, LedgerOperation, OperationKind, SimulatorLedger } from './simulator/ledger.js';
export type { ResponseCode } from './simulator/response-codes.js';
export { startSimulator, type Simulator } from './simulator/server.js';
export { TEST_CARDS, type TestCard, type TestCardOutcome } from './simulator/test-cards.js';
