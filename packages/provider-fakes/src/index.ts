export { DESCRIPTIONS, loadDescription, type DescriptionName } from './openapi/descriptions.js';
export { DESCRIPTION_API_VERSION as STRIPE_DESCRIPTION_API_VERSION } from './stripe/contract.js';
export { signStripePayload } from './stripe/events.js';
export { STATE_PATH as FAKE_STRIPE_STATE_PATH } from './stripe/server.js';
export {
  startFakeStripe,
  type FakeFailure,
  type FakeStripe,
  type FakeStripeOptions,
  type JournalEntry,
  type RequestMatch,
  type Violation,
} from './stripe/server.js';
export type { RefundStatus } from './stripe/behaviour.js';
export { STRIPE_TEST_CARDS, type CardBehaviour, type StripeTestCard } from './stripe/test-cards.js';
