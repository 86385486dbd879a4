/** Helpers for this package's tests, whatever the provider type. */
import type { AuthoriseRequest, ProviderFailure, ProviderResult, ReverseRequest } from './connector.js';

export function valueOf<T>(result: ProviderResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.failure.category} (${result.failure.gatewayCode})`);
  return result.value;
}

export function failureOf(result: ProviderResult<unknown>): ProviderFailure {
  if (result.ok) throw new Error('expected a failure');
  return result.failure;
}

/**
 * An authorise request that keeps what the connector hands to `keep` (each call adding to what was
 * kept before), as the gateway does, and the reverse request the gateway would make of that attempt
 * (its stored parameters and kept data).
 */
export function kept(req: AuthoriseRequest): { req: AuthoriseRequest; reverse: (extra?: Partial<ReverseRequest>) => ReverseRequest } {
  let providerData: Record<string, string> | undefined;
  const withKeep = { ...req, keep: async (data: Record<string, string>) => void (providerData = { ...providerData, ...data }) };
  const { source: _source, keep: _keep, ...parameters } = withKeep;
  return { req: withKeep, reverse: (extra = {}) => ({ ...parameters, providerData, ...extra }) };
}
