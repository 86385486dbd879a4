import { findCurrency } from '@gateway/core';
import type { FailureCategory, ProviderConnector, ProviderFailure, ThreeDsOutcome } from './connector.js';

/**
 * What the gateway knows of a kind of provider (dummy, stripe, adyen) before it has a connector:
 * its parameters, currencies, operations, endpoints and notification format. One per folder
 * (`dummy/`, `stripe/`, `adyen/`), listed in `registry.ts`.
 */

export type Environment = 'SANDBOX' | 'PRODUCTION';

/** The operations a provider type may offer; `GET /info/provider_types` lists them. */
export type ProviderOperation =
  | 'authorise'
  | 'sale'
  | 'capture'
  | 'partialCapture'
  | 'void'
  | 'refund'
  | 'partialRefund'
  | 'reverse'
  | 'storeCard'
  | 'describeStoredCard'
  | 'updateStoredCard'
  | 'deleteStoredCard'
  | 'singleUseToken'
  | 'multiUseToken'
  | 'recurring'
  | 'networkToken'
  | 'bankAccountDebit'
  | 'payTo'
  | 'applePay'
  | 'notifications'
  /** 3-D Secure through the provider's redirect (`AuthoriseRequest.authentication`). */
  | 'threeDsRedirect'
  /** An authentication the merchant ran elsewhere, passed through (`AuthoriseRequest.externalThreeDs`). */
  | 'externalThreeDs';

/** The card operations every card provider type offers, but where it says otherwise. */
export const CARD_OPERATIONS: readonly ProviderOperation[] = [
  'authorise',
  'sale',
  'capture',
  'partialCapture',
  'void',
  'refund',
  'partialRefund',
  'reverse',
  'storeCard',
  'describeStoredCard',
  'updateStoredCard',
  'deleteStoredCard',
  'singleUseToken',
  'multiUseToken',
  'recurring',
];

/** One authenticationParameter of a type. Names are matched case-insensitively. */
export interface ParameterSpec {
  name: string;
  /** true, false, or only for PRODUCTION. */
  required: boolean | 'PRODUCTION';
  /** A secret is never answered or logged (all parameters are sealed alike). */
  secret: boolean;
  description: string;
}

/** Parameters read against a type: canonical names, or what is wrong with which (by its canonical name). */
export type ParameterCheck = { ok: true; parameters: Record<string, string> } | { ok: false; problems: Record<string, string> };

export interface ConnectorOptions {
  /** Where calls go: the type's endpoint for the environment, or the operator's GATEWAY_PROVIDER_ENDPOINTS. */
  baseUrl: string;
  /** Budget of one call; past it the outcome is unknown (failure `timeout`, retryable). */
  timeoutMs: number;
  environment: Environment;
  /** The provider's checked authenticationParameters, by canonical name. */
  parameters: Readonly<Record<string, string>>;
  /** The connector's clock, in milliseconds (default Date.now): how old an attempt is when reversed. */
  now?: () => number;
  /** The simulated acquirer's own behaviour (dummy only). */
  simulation?: {
    latency: { minMs: number; maxMs: number };
    settlementDelayMs: number;
    /** Where the gateway serves the simulated issuer's 3-D Secure challenge page (dummy/issuer-page.ts). */
    issuerPageUrl?: string;
  };
}

/** A notification as the provider sent it: the raw bytes (signatures cover them), never re-serialised JSON. */
export interface NotificationRequest {
  rawBody: Buffer;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  parameters: Readonly<Record<string, string>>;
  now: Date;
}

export type NotificationEvent = 'authorisation' | 'capture' | 'void' | 'refund' | 'other';

/** One event a provider reported, in the gateway's terms. */
export interface ProviderNotification {
  /** Unique at the provider: the same notification delivered again has the same id. */
  id: string;
  event: NotificationEvent;
  success: boolean;
  /** The provider's payment id (Adyen original pspReference, Stripe payment intent id). */
  providerChargeId?: string;
  /** The idempotency key / reference the gateway sent with the call reported on, when echoed. */
  reference?: string;
  /** The provider's id of the modification (Adyen pspReference of a capture, cancel or refund). */
  providerReference?: string;
  /**
   * What the event was for, as the provider sent it: `amount` in ISO minor units of `currency`,
   * converted as the connector converts amounts. Both absent when the event carries no amount;
   * `currency` alone when the amount cannot be counted in ISO minor units (finer than the currency
   * counts, or a currency ISO 4217 does not know), so that it equals no amount of the gateway's.
   */
  amount?: bigint;
  currency?: string;
  /** Why it failed, from the connector's code table (never the provider's free text). */
  failure?: ProviderFailure;
  /** For an authorisation: how the payer was authenticated (3-D Secure), when the provider says. */
  threeDs?: ThreeDsOutcome;
}

export type NotificationRead =
  | { ok: true; notifications: ProviderNotification[] }
  /** Not verified (bad signature, stale timestamp, another account): nothing may change. */
  | { ok: false; reason: string };

export interface NotificationFormat {
  /** Verifies the raw request with the provider's scheme and reads its events. */
  read(req: NotificationRequest): NotificationRead;
  /** The answer the provider expects for a notification taken. */
  accepted: { status: number; contentType: string; body: string };
}

export interface ProviderType {
  type: string;
  displayName: string;
  parameters: readonly ParameterSpec[];
  /** Checks authenticationParameters for an environment (400 naming the parameter when not ok). */
  checkParameters(parameters: Readonly<Record<string, string>>, environment: Environment): ParameterCheck;
  /** Currencies the type takes (ISO 4217 codes). */
  currencies: readonly string[];
  /**
   * An amount in ISO minor units as the provider's own minor units, or undefined when the provider
   * cannot express it (currency not taken, or finer than the provider counts it).
   */
  providerAmount(currency: string, isoMinor: bigint): bigint | undefined;
  operations: ReadonlySet<ProviderOperation>;
  /** The provider's own endpoint for an environment (HTTPS), before any operator override. */
  endpoint(environment: Environment, parameters: Readonly<Record<string, string>>): string;
  connector(options: ConnectorOptions): ProviderConnector;
  notifications?: NotificationFormat;
  /**
   * The card number in an Apple Pay `paymentData`, for a type whose wallet data the gateway can
   * read (the dummy type's test format carries it in clear; a real token is sealed for the
   * provider): the gateway fingerprints it for its card-testing limits and keeps nothing of it.
   */
  walletCardNumber?(paymentData: unknown): string | undefined;
  /**
   * For a provider without idempotency keys (NAB Transact): a call sent again after its answer was
   * lost may move money twice, so the gateway never sends one again. It reverses what it can and
   * holds the rest for staff (docs/outcome-unknown.md), who look the call up at the provider by
   * `lookupReference`. Absent: every call may be sent again with its key (the contract's rule).
   */
  noIdempotency?: {
    /** What the provider knows the call by (NAB: its purchase order number): of the payment a capture, void or refund quotes, else of the call's key. */
    lookupReference(call: { idempotencyKey: string; providerChargeId?: string | null }): string;
    /**
     * The payment id (`Authorisation.providerChargeId`) of a held payment staff found at the
     * provider, from the ids they read there; undefined when one the provider needs is missing.
     */
    paymentFound(found: FoundPayment): string | undefined;
    /**
     * The payment id of an attempt the provider approved, from what its connector kept
     * (`AuthoriseRequest.keep`) as soon as it answered; undefined when what was kept is no
     * approval. A resumed batch row or subscription payment whose answer its run never recorded is
     * recorded from it rather than sent again or reversed.
     */
    approvedIn(kept: Readonly<Record<string, string>>): string | undefined;
  };
}

/** A payment (or its capture) held for staff, its answer lost, as they found it at the provider. */
export interface FoundPayment {
  /** The attempt's idempotency key. */
  idempotencyKey: string;
  /** In ISO minor units. */
  amount: bigint;
  currency: string;
  /** A sale (else an authorisation only). */
  capture: boolean;
  /** The provider's id of the transaction (NAB: txnID). */
  transactionId: string;
  /** For an authorisation, the provider's id of it when it has one of its own (NAB: preauthID). */
  authorisationId?: string;
  /** For a capture that is a transaction of its own (NAB's completion): the payment id it completes. */
  completes?: string;
}

/** A failure as data, for connectors. */
export function failure(
  category: FailureCategory,
  gatewayCode: string,
  gatewayMessage: string,
  retryable: boolean,
): { ok: false; failure: ProviderFailure } {
  return { ok: false, failure: { category, retryable, gatewayCode, gatewayMessage } };
}

/** What a connector answers for an operation its type does not offer. */
/** The gatewayCode of what a provider type does not offer at all: the configuration's limit, never the card's. */
export const UNSUPPORTED_CODE = 'UNSUPPORTED';

export function unsupported(type: string, operation: string): { ok: false; failure: ProviderFailure } {
  return failure('unsupported', UNSUPPORTED_CODE, `Providers of type ${type} do not offer ${operation}`, false);
}

/**
 * An amount in ISO minor units of `currency` as minor units with `providerExponent` decimals, or
 * undefined when it has digits the provider cannot count (or the currency is unknown).
 */
export function rescaleMinorUnits(currency: string, isoMinor: bigint, providerExponent: number): bigint | undefined {
  const iso = findCurrency(currency);
  return iso && rescaleUnits(isoMinor, iso.exponent, providerExponent);
}

/** Minor units with `fromExponent` decimals as minor units with `toExponent`, or undefined when digits would be lost. */
export function rescaleUnits(value: bigint, fromExponent: number, toExponent: number): bigint | undefined {
  const shift = toExponent - fromExponent;
  if (shift >= 0) return value * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  return value % divisor === 0n ? value / divisor : undefined;
}

/**
 * Reads authenticationParameters against a type's specs: names matched case-insensitively and
 * answered by their canonical names, unknown names refused, required ones (for the environment)
 * demanded, and each given value checked by `problemOf` (a problem text, or undefined when good).
 */
export function readParameters(
  specs: readonly ParameterSpec[],
  given: Readonly<Record<string, string>>,
  environment: Environment,
  problemOf: (name: string, value: string) => string | undefined,
): ParameterCheck {
  const parameters: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const spec = specs.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!spec) problems[name] = `Not a parameter of this provider type (${specs.map((s) => s.name).join(', ')})`;
    else parameters[spec.name] = value;
  }
  for (const spec of specs) {
    const value = parameters[spec.name];
    const required = spec.required === true || spec.required === environment;
    if (value === undefined || value === '') {
      if (required) problems[spec.name] = `${spec.name} is required${spec.required === 'PRODUCTION' ? ' for PRODUCTION' : ''}`;
      delete parameters[spec.name];
      continue;
    }
    const problem = problemOf(spec.name, value);
    if (problem) problems[spec.name] = problem;
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, parameters };
}
