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
  type JournalEntry as AdyenJournalEntry,
  type Violation as AdyenViolation,
} from './adyen/server.js';
export {
  CHALLENGE_PASSWORD as ADYEN_CHALLENGE_PASSWORD,
  FAILING_MODIFICATION_NAMES,
  HOLDER_NAME_OUTCOMES,
  TEST_CARDS as ADYEN_TEST_CARDS,
  TEST_EXPIRY as ADYEN_TEST_EXPIRY,
} from './adyen/test-cards.js';
export type { ChallengeOutcome as AdyenChallengeOutcome, FakeThreeDSecure as FakeAdyenThreeDSecure } from './adyen/three-d-secure.js';
export { DESCRIPTIONS, loadDescription, type DescriptionName } from './openapi/descriptions.js';
export { contractValidator, type ContractValidator } from './openapi/validator.js';
export { DESCRIPTION_API_VERSION as STRIPE_DESCRIPTION_API_VERSION } from './stripe/contract.js';
export { signStripePayload } from './stripe/events.js';
export { STATE_PATH as FAKE_STRIPE_STATE_PATH } from './stripe/server.js';
export {
  startFakeStripe,
  type FakeFailure,
  type FakeStripe,
  type FakeStripeOptions,
  type JournalEntry as StripeJournalEntry,
  type RequestMatch,
  type Violation as StripeViolation,
} from './stripe/server.js';
export type { ChallengeOutcome as StripeChallengeOutcome, RefundStatus } from './stripe/behaviour.js';
export { STRIPE_TEST_CARDS, type CardBehaviour, type StripeTestCard } from './stripe/test-cards.js';
export { CHECKOUT_TEST_CARDS, type ChallengeOutcome as CheckoutChallengeOutcome, type CheckoutTestCard } from './checkout/test-cards.js';
export {
  startFakeCheckout,
  type CheckoutDelivery,
  type CheckoutFault,
  type CheckoutJournalEntry,
  type CheckoutViolation,
  type FakeCheckout,
  type FakeCheckoutAction,
  type FakeCheckoutOptions,
  type FakeCheckoutPayment,
  type FakeInstrument,
} from './checkout/server.js';
export {
  maskedMessage as maskedNabMessage,
  NAB_TEST_CARD,
  startFakeNab,
  type FakeNab,
  type FakeNabOptions,
  type FakeNabTransaction,
  type NabCall,
  type NabFault,
  type NabJournalEntry,
  type NabViolation,
} from './nab_transact/server.js';
