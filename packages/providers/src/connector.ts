/**
 * The contract between the gateway core and an acquirer/processor connector.
 *
 * Amounts are integer minor units (`bigint`) of the currency as ISO 4217 counts them; a connector
 * whose provider counts a currency otherwise (Stripe, Adyen) converts in its own mapping, and the
 * gateway checks beforehand that the provider can express the amount (`ProviderType.providerAmount`).
 * Every method is idempotent at the provider by its idempotency key: repeating a call with the same
 * key returns the same result and never moves money twice, so the gateway may retry after a crash;
 * but for a type with `ProviderType.noIdempotency` (NAB Transact), whose calls the gateway never
 * sends twice.
 * An operation a provider type does not offer answers the failure category `unsupported`.
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
  | 'over_limit'
  /** The card needs 3-D Secure (or another customer authentication) the gateway cannot run yet. */
  | 'authentication_required'
  | 'invalid_cvc'
  | 'suspected_fraud'
  /** The provider account is not enabled for this (raw card numbers, a currency, a feature). */
  | 'not_permitted'
  /** The provider refused the gateway's credentials for this provider. */
  | 'credentials_refused'
  /** The amount cannot be expressed in the provider's minor units of the currency. */
  | 'invalid_amount'
  /** The provider type does not offer this operation. */
  | 'unsupported'
  /**
   * `reverse` cannot tell what an authorise call whose answer was lost did, and cannot undo it
   * either (a provider without idempotency keys or a look-up: NAB Transact without the call's
   * transaction id). Not retryable: the gateway holds the charge for staff (docs/outcome-unknown.md).
   */
  | 'outcome_unknown';

export interface ProviderFailure {
  category: FailureCategory;
  /** True when the same call, with the same idempotency key, may succeed later. */
  retryable: boolean;
  /** The acquirer's own response code (or a connector code such as "TIMEOUT"). */
  gatewayCode: string;
  /** Human-readable, from the connector's code table: never the provider's free text, never card data. */
  gatewayMessage: string;
}

/**
 * What a credential check found: the provider took the credentials, refused them (401 or 403), or
 * could not tell, the endpoint being unreachable, silent past the timeout, or answering something
 * else (another status, or an answer the provider would not give) that says nothing of them.
 */
export type CredentialCheck =
  | { ok: true }
  | { ok: false; cause: 'refused'; httpStatus: number }
  | { ok: false; cause: 'unreachable' }
  | { ok: false; cause: 'timed_out'; timeoutMs: number }
  | { ok: false; cause: 'answered'; httpStatus?: number };

/** The verdict of an HTTP status on a credential check. */
export function credentialVerdict(httpStatus: number): CredentialCheck {
  if (httpStatus >= 200 && httpStatus < 300) return { ok: true };
  return httpStatus === 401 || httpStatus === 403
    ? { ok: false, cause: 'refused', httpStatus }
    : { ok: false, cause: 'answered', httpStatus };
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
  | {
      type: 'stored_card';
      providerToken: string;
      /** What the connector kept beside the token when it stored the card (StoredCard.providerData). */
      providerData?: Record<string, string>;
      cvc?: string;
    }
  | { type: 'network_token'; networkTokenId: string }
  | { type: 'wallet'; wallet: 'apple_pay'; paymentData: WalletPaymentData };

/**
 * EMV 3-D Secure as the provider reports it for a payment (docs/three-d-secure.md). `transStatus`:
 * Y authenticated, A attempted, N not authenticated, R rejected, U unavailable, C challenge required.
 */
export interface ThreeDsOutcome {
  /** The payer saw a challenge, or was authenticated without one. */
  flow?: 'challenge' | 'frictionless';
  transStatus?: 'Y' | 'A' | 'N' | 'R' | 'U' | 'C';
  /** Electronic commerce indicator (05/02 authenticated, 06/01 attempted, 07/00 none). */
  eci?: string;
  /** The protocol version, 2.1.0, 2.2.0… */
  version?: string;
  /** Whether the liability for fraud moved to the issuer. */
  liabilityShift?: boolean;
}

/** An authentication the merchant ran with a 3-D Secure server of its own, passed to the provider (Adyen mpiData). */
export interface ExternalThreeDs {
  eci: string;
  /** The CAVV (or AAV), base64. */
  authenticationValue: string;
  dsTransID: string;
  threeDsVersion: string;
  transStatus?: 'Y' | 'A' | 'N' | 'R' | 'U';
}

/**
 * The outcome's transStatus of an authentication run elsewhere: the merchant's, else the one its
 * ECI says (05 or 02 authenticated, 06 or 01 attempted, any other not authenticated), so that every
 * provider type reads it alike. Only the outcome: the provider is sent what the merchant sent.
 */
export function externalTransStatus(external: ExternalThreeDs): NonNullable<ExternalThreeDs['transStatus']> {
  if (external.transStatus) return external.transStatus;
  return ['05', '02'].includes(external.eci) ? 'Y' : ['06', '01'].includes(external.eci) ? 'A' : 'N';
}

/** What a browser tells of itself, for the issuer's risk checks (Adyen browserInfo). */
export interface BrowserInfo {
  userAgent?: string;
  acceptHeader?: string;
  language?: string;
  colorDepth?: number;
  screenHeight?: number;
  screenWidth?: number;
  timeZoneOffset?: number;
  javaEnabled?: boolean;
}

/**
 * The payer is present and can be sent to the issuer: the payment may be authenticated (3-D
 * Secure) through the provider's redirect. Absent: no redirect may be asked for, and a card whose
 * issuer demands authentication is refused (`authentication_required`).
 */
export interface AuthenticationRequest {
  /** Where the provider sends the payer's browser back: the gateway's return URL for this charge. */
  returnUrl: string;
  /** The origin of the page the payer pays on (Adyen `origin`). */
  origin: string;
  browser: BrowserInfo;
  /** Whether to ask for authentication whatever the issuer says (Stripe request_three_d_secure `any`); default `automatic`. */
  request?: 'automatic' | 'any';
  /** The merchant's name, shown by the issuer (the simulated issuer page). */
  merchantName: string;
}

/** The provider wants the payer authenticated by the issuer first: the browser goes to `redirect`. */
export interface Challenge {
  /** The provider's page: a GET, or a form POSTed with `data` (auto-submitted). */
  redirect: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> };
}

/** Where a payment that waited for the payer's authentication stands. */
export type AuthenticationResult =
  /** The payer has not finished (or the provider cannot tell yet). */
  | { state: 'waiting' }
  | { state: 'authorised'; authorisation: Authorisation }
  | { state: 'failed'; failure: ProviderFailure; threeDs?: ThreeDsOutcome };

export interface AuthenticationResultRequest {
  /** The payment, as `Authorisation.providerChargeId` named it. */
  providerChargeId: string;
  /** The authorise call's idempotency key (a follow-up call's own key derives from it). */
  idempotencyKey: string;
  amount: bigint;
  currency: string;
  capture: boolean;
  /** What the provider's return brought back (query or form fields: Stripe payment_intent, Adyen redirectResult). */
  returned?: Record<string, string>;
  /** A verified notification about the payment, for a provider that cannot be asked without the return (Adyen). */
  notified?: ProviderNotificationOutcome;
}

/** The outcome a verified provider notification reported for a payment. */
export interface ProviderNotificationOutcome {
  success: boolean;
  failure?: ProviderFailure;
  threeDs?: ThreeDsOutcome;
}

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
  /** The merchant's reference (Adyen: merchantOrderReference; the attempt's key is Adyen's reference). */
  reference?: string;
  descriptor?: string;
  /** The payer can be redirected for 3-D Secure (the merchant opted in, the payer is present). */
  authentication?: AuthenticationRequest;
  /** An authentication the merchant ran elsewhere, passed through. */
  externalThreeDs?: ExternalThreeDs;
  /**
   * Keeps provider ids the connector needs to reverse this call later (a Stripe payment method id
   * made in an earlier sub-call, say), before the sub-call that moves money: the gateway stores them
   * with the attempt and hands them back in `ReverseRequest.providerData`. Never card data.
   */
  keep?: (providerData: Record<string, string>) => Promise<void>;
}

/** The non-card parameters of an authorise call, as the gateway stored them with the attempt. */
export type AttemptParameters = Omit<AuthoriseRequest, 'source' | 'keep' | 'authentication' | 'externalThreeDs'>;

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

/** A card as the gateway may keep it after sending it to a provider. */
export function summaryOf(card: CardDetails): CardSummary {
  return {
    iin: card.number.slice(0, 6),
    last4: card.number.slice(-4),
    length: card.number.length,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    ...(card.cardholder !== undefined && { cardholder: card.cardholder }),
  };
}

export interface Authorisation {
  providerChargeId: string;
  captured: boolean;
  /** Authorised amount, in ISO minor units. */
  amount: bigint;
  /** The card charged, for sources that carry no card number (stored card, token, wallet). */
  card?: CardSummary;
  /**
   * For a sale whose capture the provider settles later (Adyen answers captures "received"): the
   * capture, pending until its notification. Absent: the capture is done.
   */
  capture?: Modification;
  /**
   * The payment waits for the payer's authentication with the issuer (only when the request allowed
   * it): nothing is authorised yet (`captured` false); `authenticationResult` tells the outcome.
   */
  challenge?: Challenge;
  /** How the payer was authenticated (3-D Secure), when the provider says. */
  threeDs?: ThreeDsOutcome;
}

/** A card the acquirer keeps for later payments, known to the gateway by the acquirer's token. */
export interface StoredCard {
  providerToken: string;
  /** Non-card ids the connector needs with the token later (Stripe customer, Adyen shopperReference). */
  providerData?: Record<string, string>;
  card: CardSummary;
}

export interface StoreCardRequest {
  idempotencyKey: string;
  /** Card details, or a single-use token the merchant's page got from the acquirer (exchanged for a reusable one). */
  source: { type: 'card'; card: CardDetails } | { type: 'single_use_token'; token: string };
  /** A stable id the gateway chose for the card's owner (its payment method id): Adyen's shopperReference. */
  ownerReference?: string;
  /** The provider's default currency, for providers that check the card with a zero-amount payment (Adyen; EUR when absent). */
  currency?: string;
}

/** A stored card as the gateway knows it: the token, and what was kept beside it. */
export interface StoredCardRef {
  providerToken: string;
  /** StoredCard.providerData, or for a token a merchant brings, its providerTokenData. */
  providerData?: Record<string, string>;
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
  /** The payment's currency (ISO 4217): Adyen needs it with every amount; Stripe looks it up when absent. */
  currency?: string;
}

/**
 * A capture, void or refund the provider accepted but settles later (Adyen's "received"): the
 * outcome comes by notification. Absent or false: done.
 */
export interface Modification {
  pending?: boolean;
  /** The provider's id of this modification (Adyen pspReference of the capture/cancel/refund). */
  providerReference?: string;
}

export interface Capture extends Modification {
  amount: bigint;
  /**
   * The payment's id from now on, when the capture is a transaction of its own that later refunds
   * must quote (NAB Transact's completion has its own transaction id). Absent: unchanged.
   */
  providerChargeId?: string;
}

export interface VoidRequest {
  providerChargeId: string;
  idempotencyKey: string;
}

export interface RefundRequest {
  providerChargeId: string;
  amount: bigint;
  idempotencyKey: string;
  /** The payment's currency (ISO 4217): Adyen needs it with every amount; Stripe looks it up when absent. */
  currency?: string;
}

export interface Refund extends Modification {
  providerRefundId: string;
}

/**
 * Cancels whatever an authorise call did, for a call whose outcome is unknown. Carries the call's
 * stored non-card parameters (Stripe replays the create with the same key and parameters, then
 * cancels or refunds what it answers; Adyen cancels by the attempt's reference).
 */
export interface ReverseRequest extends Partial<AttemptParameters> {
  /** The idempotency key of the authorise call to cancel. */
  idempotencyKey: string;
  /** What the call handed to `AuthoriseRequest.keep`, if anything. */
  providerData?: Record<string, string>;
  /** The provider's payment id, when the gateway learnt it. */
  providerChargeId?: string;
}

export interface ProviderConnector {
  authorise(req: AuthoriseRequest): Promise<ProviderResult<Authorisation>>;
  capture(req: CaptureRequest): Promise<ProviderResult<Capture>>;
  void(req: VoidRequest): Promise<ProviderResult<Modification>>;
  refund(req: RefundRequest): Promise<ProviderResult<Refund>>;
  /**
   * Cancels whatever an authorise call with this idempotency key did, for a call whose outcome is
   * unknown (timeout). Safe if nothing happened: the acquirer then refuses that key from now on.
   */
  reverse(req: ReverseRequest): Promise<ProviderResult<void>>;
  /**
   * Where a payment that waited for the payer's authentication (`Authorisation.challenge`) stands:
   * after the payer's return, a notification, or when the gateway gives up waiting. Never trusts
   * the return's parameters alone: the provider is asked (or its verified notification read).
   */
  authenticationResult(req: AuthenticationResultRequest): Promise<ProviderResult<AuthenticationResult>>;
  /** One harmless authenticated call: are the credentials good? (the dashboard's "check credentials") */
  checkCredentials(): Promise<CredentialCheck>;

  /** Keeps a card at the acquirer for later payments. */
  storeCard(req: StoreCardRequest): Promise<ProviderResult<StoredCard>>;
  /** What the acquirer knows of a reusable token it issued (for tokens merchants bring). */
  describeStoredCard(req: StoredCardRef): Promise<ProviderResult<StoredCard>>;
  updateStoredCard(
    req: StoredCardRef & {
      expiryMonth?: number;
      expiryYear?: number;
      cardholder?: string;
    },
  ): Promise<ProviderResult<StoredCard>>;
  deleteStoredCard(req: StoredCardRef): Promise<ProviderResult<void>>;
  createNetworkToken(req: { idempotencyKey: string; providerToken: string }): Promise<ProviderResult<NetworkToken>>;

  debit(req: DebitRequest): Promise<ProviderResult<Debit>>;
  /** Where a debit stands; a gateway asks until it is settled or failed. */
  paymentState(req: { providerChargeId: string }): Promise<ProviderResult<PaymentState>>;
  createPayToAgreement(req: PayToAgreementRequest): Promise<ProviderResult<PayToAgreement>>;
}
