import type { IncomingMessage } from 'node:http';
import { toApiError } from '@gateway/api';
import ipaddr from 'ipaddr.js';
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
 * What limits count per client as one client: an IPv4 address (also when written IPv4-mapped,
 * `::ffff:a.b.c.d`), or an IPv6 address's /64, the smallest network one subscriber is given, in
 * which anyone can use as many addresses as they like.
 */
export function limitKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  return `${new ipaddr.IPv6([...(ip as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The client's address as limits count it (see limitKeyOf): the connection's peer, unless that
 * peer is a trusted proxy, in which case the nearest address in X-Forwarded-For that is not one
 * (so a client cannot choose its address by sending the header itself).
 */
export const clientAddressOf = (req: IncomingMessage, trusted: TrustedProxies): string => limitKeyOf(proxyAddr(req, trusted) ?? 'unknown');

/** Headers an error's answer carries: Retry-After when it says when to come back (a limit, a request in progress). */
export function errorHeaders(error: unknown): Record<string, string> {
  const { retryAfterSeconds } = toApiError(error);
  return retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
}
