/**
 * The contract between the gateway core and an acquirer/processor connector.
 *
 * Amounts are integer minor units (`bigint`) of an ISO 4217 currency. Every method is idempotent
 * at the acquirer by its idempotency key: repeating a call with the same key returns the same
 * result and never moves money twice, so the gateway may retry after a crash.
 */

export interface CardDetails {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvc?: string;
  cardholder?: string;
}

export type FailureCategory =
  | 'do_not_honour'
  | 'insufficient_funds'
  | 'expired_card'
  | 'stolen_card'
  | 'invalid_card'
  | 'processor_error'
  | 'timeout'
  | 'invalid_request'
  | 'not_found'
  | 'over_limit';

export interface ProviderFailure {
  category: FailureCategory;
  /** True when the same call, with the same idempotency key, may succeed later. */
  retryable: boolean;
  /** The acquirer's own response code (or a connector code such as "TIMEOUT"). */
  gatewayCode: string;
  /** Human-readable; never contains card data. */
  gatewayMessage: string;
}

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

/**
 * A device-wallet payment (Apple Pay) as the wallet produced it. Real tokens are encrypted for the
 * merchant; the simulated acquirer accepts a documented test format (docs/test-cards.md).
 */
export interface WalletPaymentData {
  data: string;
  signature: string;
  header: { publicKeyHash?: string; ephemeralPublicKey?: string; transactionId?: string };
  version: string;
}

/** What pays: card details, a card the acquirer stored, a network token or a wallet token. */
export type PaymentSource =
  | { type: 'card'; card: CardDetails }
  | { type: 'stored_card'; providerToken: string; cvc?: string }
  | { type: 'network_token'; networkTokenId: string }
  | { type: 'wallet'; wallet: 'apple_pay'; paymentData: WalletPaymentData };

export interface AuthoriseRequest {
  idempotencyKey: string;
  /** 0 authorises nothing: a card verification (void it afterwards). */
  amount: bigint;
  currency: string;
  /** Capture in the same call (a sale) instead of only authorising. */
  capture: boolean;
  source: PaymentSource;
  /** A merchant-initiated repeat payment on stored details. */
  recurring?: boolean;
  reference?: string;
  descriptor?: string;
}

/** What the acquirer tells about a card: all a gateway may keep (never the full number). */
export interface CardSummary {
  iin: string;
  last4: string;
  /** Card number length, to rebuild the masked number. */
  length: number;
  expiryMonth: number;
  expiryYear: number;
  cardholder?: string;
}

export interface Authorisation {
  providerChargeId: string;
  captured: boolean;
  amount: bigint;
  /** The card charged, for sources that carry no card number (stored card, token, wallet). */
  card?: CardSummary;
}

/** A card the acquirer keeps for later payments, known to the gateway by the acquirer's token. */
export interface StoredCard {
  providerToken: string;
  card: CardSummary;
}

export interface StoreCardRequest {
  idempotencyKey: string;
  /** Card details, or a single-use token the merchant's page got from the acquirer (exchanged for a reusable one). */
  source: { type: 'card'; card: CardDetails } | { type: 'single_use_token'; token: string };
}

export interface NetworkToken {
  networkTokenId: string;
  schemeTokenId: string;
  status: 'ACTIVE';
}

export type DebitAccount =
  | { type: 'bank_account'; bankCode: string; accountNumber: string; accountName: string }
  | { type: 'payto'; agreementId: string };

/** A direct debit (bank account, PayTo): accepted at once, settled or failed later. */
export interface DebitRequest {
  idempotencyKey: string;
  amount: bigint;
  currency: string;
  account: DebitAccount;
  reference?: string;
}

export interface Debit {
  providerChargeId: string;
}

export type PaymentState = { state: 'pending' } | { state: 'settled' } | { state: 'failed'; failure: ProviderFailure };

export interface PayToAgreementRequest {
  idempotencyKey: string;
  payerName: string;
  payId: string;
  payIdType: string;
  description: string;
  /** Largest single payment, in minor units. */
  maximumAmount: bigint;
  currency: string;
}

export interface PayToAgreement {
  agreementId: string;
  status: 'ACTIVE' | 'PENDING';
}

export interface CaptureRequest {
  providerChargeId: string;
  amount: bigint;
  idempotencyKey: string;
}

export interface Capture {
  amount: bigint;
}

export interface VoidRequest {
  providerChargeId: string;
  idempotencyKey: string;
}

export interface RefundRequest {
  providerChargeId: string;
  amount: bigint;
  idempotencyKey: string;
}

export interface Refund {
  providerRefundId: string;
}

export interface ReverseRequest {
  /** The idempotency key of the authorise call to cancel. */
  idempotencyKey: string;
}

export interface ProviderConnector {
  authorise(req: AuthoriseRequest): Promise<ProviderResult<Authorisation>>;
  capture(req: CaptureRequest): Promise<ProviderResult<Capture>>;
  void(req: VoidRequest): Promise<ProviderResult<void>>;
  refund(req: RefundRequest): Promise<ProviderResult<Refund>>;
  /**
   * Cancels whatever an authorise call with this idempotency key did, for a call whose outcome is
   * unknown (timeout). Safe if nothing happened: the acquirer then refuses that key from now on.
   */
  reverse(req: ReverseRequest): Promise<ProviderResult<void>>;

  /** Keeps a card at the acquirer for later payments. */
  storeCard(req: StoreCardRequest): Promise<ProviderResult<StoredCard>>;
  /** What the acquirer knows of a reusable token it issued (for tokens merchants bring). */
  describeStoredCard(req: { providerToken: string }): Promise<ProviderResult<StoredCard>>;
  updateStoredCard(req: {
    providerToken: string;
    expiryMonth?: number;
    expiryYear?: number;
    cardholder?: string;
  }): Promise<ProviderResult<StoredCard>>;
  deleteStoredCard(req: { providerToken: string }): Promise<ProviderResult<void>>;
  createNetworkToken(req: { idempotencyKey: string; providerToken: string }): Promise<ProviderResult<NetworkToken>>;

  debit(req: DebitRequest): Promise<ProviderResult<Debit>>;
  /** Where a debit stands; a gateway asks until it is settled or failed. */
  paymentState(req: { providerChargeId: string }): Promise<ProviderResult<PaymentState>>;
  createPayToAgreement(req: PayToAgreementRequest): Promise<ProviderResult<PayToAgreement>>;
}
