/** Helpers for this package's tests, whatever the provider type. */
import type { ProviderFailure, ProviderResult } from './connector.js';

export function valueOf<T>(result: ProviderResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.failure.category} (${result.failure.gatewayCode})`);
  return result.value;
}

export function failureOf(result: ProviderResult<unknown>): ProviderFailure {
  if (result.ok) throw new Error('expected a failure');
  return result.failure;
}
