import { ApiError, type ErrorName } from '@gateway/core';
import type { Provider } from '@gateway/db';
import type { FailureCategory, ProviderConnector, ProviderFailure, ProviderType } from '@gateway/providers';
import type { ServiceConfig } from '../deps';
import { storedParameters } from './credentials';
import { typeOfProvider } from './currencies';
import { environmentOf } from './provider-types';

/**
 * How long a reversal may take. It is the call that keeps a payer from being charged twice after
 * an unknown outcome, so it gets far longer than the provider's payment timeout.
 */
export const REVERSAL_TIMEOUT_MS = 10_000;

/**
 * Where a provider's calls go: the simulated acquirer for `dummy`; else the operator's endpoint for
 * the type (GATEWAY_PROVIDER_ENDPOINTS; an origin alone keeps the path of the type's own endpoint,
 * Adyen's `/v71`), or the provider's own endpoint for the environment. Nothing a merchant sets but
 * the environment (and Adyen's checked live prefix) chooses it.
 */
function baseUrlOf(type: ProviderType, provider: Provider, parameters: Readonly<Record<string, string>>, config: ServiceConfig): string {
  if (type.type === 'dummy') return config.simulatorUrl;
  const own = type.endpoint(environmentOf(provider), parameters);
  const override = config.providerEndpoints?.[type.type];
  if (!override) return own;
  const url = new URL(override);
  return url.pathname === '/' ? `${url.origin}${new URL(own).pathname.replace(/\/$/, '')}` : override.replace(/\/+$/, '');
}

/** Where the gateway serves the simulated issuer's 3-D Secure challenge page (the dummy type's, by challenge id after it). */
export const simulatedIssuerPageUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/simulator/3ds`;

/** The connector that talks to a provider row's acquirer (with another timeout for reversals). */
export function connectorFor(provider: Provider, config: ServiceConfig, options: { timeoutMs?: number } = {}): ProviderConnector {
  const type = typeOfProvider(provider);
  const parameters = type.type === 'dummy' ? {} : storedParameters(provider, config.keyring);
  return type.connector({
    baseUrl: baseUrlOf(type, provider, parameters, config),
    timeoutMs: options.timeoutMs ?? provider.timeoutMs,
    environment: environmentOf(provider),
    parameters,
    simulation: {
      latency: { minMs: provider.latencyMinMs, maxMs: provider.latencyMaxMs },
      settlementDelayMs: provider.settlementDelayMs,
      issuerPageUrl: simulatedIssuerPageUrl(config.publicUrl),
    },
  });
}

const FAILURE_ERRORS: Record<FailureCategory, ErrorName> = {
  do_not_honour: 'TransactionError',
  insufficient_funds: 'InsufficientFunds',
  expired_card: 'ExpiredCard',
  stolen_card: 'CardBlocked',
  invalid_card: 'InvalidCardNumber',
  processor_error: 'ProviderServiceError',
  timeout: 'GatewayTimeout',
  invalid_request: 'InvalidPaymentDetails',
  not_found: 'NoTransactionFound',
  over_limit: 'InvalidAmount',
  authentication_required: 'ThreeDSecureFailed',
  invalid_cvc: 'InvalidCcv',
  suspected_fraud: 'CardBlocked',
  not_permitted: 'FeatureUnavailable',
  credentials_refused: 'AccountNotAuthorised',
  invalid_amount: 'InvalidAmount',
  unsupported: 'FeatureUnavailable',
  outcome_unknown: 'GatewayTimeout',
};

const DECLINES: ReadonlySet<FailureCategory> = new Set([
  'do_not_honour',
  'insufficient_funds',
  'expired_card',
  'stolen_card',
  'invalid_card',
  'invalid_cvc',
  'suspected_fraud',
]);

/**
 * A provider's failure as the API error the client receives (always 4xx: see docs/decisions.md).
 * `action` names what failed ("payment", "capture", "refund"…) in the message; `name` the error,
 * but for an operation the provider does not offer or allow (always FeatureUnavailable).
 */
export function providerError(
  failure: ProviderFailure,
  options: { action?: string; details?: Record<string, string>; name?: ErrorName } = {},
): ApiError {
  const action = options.action ?? 'payment';
  const message = DECLINES.has(failure.category)
    ? `The card was declined: ${failure.gatewayMessage}`
    : failure.retryable
      ? `The provider could not complete the ${action}: ${failure.gatewayMessage}`
      : `The provider refused the ${action}: ${failure.gatewayMessage}`;
  // What a provider does not offer, or the account is not enabled for, is that whatever was asked.
  const unavailable = failure.category === 'unsupported' || failure.category === 'not_permitted';
  return new ApiError(unavailable ? 'FeatureUnavailable' : (options.name ?? FAILURE_ERRORS[failure.category]), {
    message,
    retryable: failure.retryable,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
    details: options.details,
  });
}

/**
 * For a call whose outcome the provider did not make known (timeout, lost connection, provider
 * error): the gateway is confirming it in the background, so the client must not repeat it.
 */
export class UnconfirmedOutcome extends ApiError {}

export function unconfirmedError(failure: ProviderFailure, action: string, details: Record<string, string>): UnconfirmedOutcome {
  return new UnconfirmedOutcome(FAILURE_ERRORS[failure.category], {
    message: `The provider did not confirm the ${action}; the gateway keeps asking it and the charge will show the outcome. Do not repeat the ${action}.`,
    retryable: false,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
    details,
  });
}
