import { ApiError, type ErrorName } from '@gateway/core';
import type { Provider } from '@gateway/db';
import { createSimulatedConnector, type FailureCategory, type ProviderConnector, type ProviderFailure } from '@gateway/providers';
import type { ServiceConfig } from '../deps';

/** The connector that talks to a provider row's acquirer. */
export function connectorFor(provider: Provider, config: ServiceConfig): ProviderConnector {
  switch (provider.type) {
    case 'dummy':
      return createSimulatedConnector({
        baseUrl: config.simulatorUrl,
        timeoutMs: provider.timeoutMs,
        latency: { minMs: provider.latencyMinMs, maxMs: provider.latencyMaxMs },
      });
    default:
      throw new ApiError('ProviderNotSupported', { message: `Provider type ${provider.type} is not supported` });
  }
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
};

/** A provider's refusal as the API error the client receives (always 4xx: see docs/decisions.md). */
export function providerError(failure: ProviderFailure, details?: Record<string, string>, name?: ErrorName): ApiError {
  return new ApiError(name ?? FAILURE_ERRORS[failure.category], {
    message: `The provider refused the payment: ${failure.gatewayMessage}`,
    retryable: failure.retryable,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
    details,
  });
}
