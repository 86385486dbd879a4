export type {
  FakeAdyenModification,
  FakeAdyenPayment,
  FakeStoredPaymentMethod,
  ModificationKind,
  NotificationDraft,
  StoredCardSeed,
} from './adyen/ledger.js';
export { notificationBody, notificationItem, signItem, type Delivery, type NotificationRequestItem } from './adyen/notifications.js';
export {
  startFakeAdyen,
  type FakeAdyen,
  type FakeAdyenOptions,
  type Fault,
  type FaultMatch,
  type JournalEntry,
  type Violation,
} from './adyen/server.js';
export {
  FAILING_MODIFICATION_NAMES,
  HOLDER_NAME_OUTCOMES,
  TEST_CARDS as ADYEN_TEST_CARDS,
  TEST_EXPIRY as ADYEN_TEST_EXPIRY,
} from './adyen/test-cards.js';
export { DESCRIPTIONS, loadDescription, type DescriptionName } from './openapi/descriptions.js';
export { contractValidator, type ContractValidator } from './openapi/validator.js';
