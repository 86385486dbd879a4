import type { IncomingMessage } from 'node:http';
import { RateLimited, toApiError } from '@gateway/api';
import proxyAddr from 'proxy-addr';

/** Which peers' X-Forwarded-For the gateway believes (proxy-addr's compiled trust). */
export type TrustedProxies = ReturnType<typeof proxyAddr.compile>;

/** The proxies of GATEWAY_TRUSTED_PROXIES: addresses, CIDR ranges, or proxy-addr's names (`loopback`, `private`…). */
export function trustedProxies(list: string): TrustedProxies {
  return proxyAddr.compile(
    list
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );
}

/**
 * The client's address, for limits that count per client: the connection's peer, unless that peer
 * is a trusted proxy, in which case the nearest address in X-Forwarded-For that is not one (so a
 * client cannot choose its address by sending the header itself).
 */
export const clientAddressOf = (req: IncomingMessage, trusted: TrustedProxies): string => proxyAddr(req, trusted) ?? 'unknown';

/** Headers an error's answer carries: Retry-After on a 429 from a limit. */
export function errorHeaders(error: unknown): Record<string, string> {
  const apiError = toApiError(error);
  return apiError instanceof RateLimited ? { 'retry-after': String(apiError.retryAfterSeconds) } : {};
}
