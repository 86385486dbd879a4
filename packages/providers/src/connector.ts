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

export interface AuthoriseRequest {
  idempotencyKey: string;
  amount: bigint;
  currency: string;
  /** Capture in the same call (a sale) instead of only authorising. */
  capture: boolean;
  card: CardDetails;
  reference?: string;
  descriptor?: string;
}

export interface Authorisation {
  providerChargeId: string;
  captured: boolean;
  amount: bigint;
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
}
