import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { maskCardNumber, maskCardNumbers } from '@gateway/core';

/**
 * Requests to merchants' webhook URLs, which must not reach the gateway's own network (SSRF): the
 * host is resolved, every address checked, and the connection made to a checked address (the
 * check is the socket's own DNS lookup, so a second, different answer cannot slip in between).
 */

const FORBIDDEN = new BlockList();
const IPV4: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const IPV6: ReadonlyArray<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated): would reach IPv4 addresses unchecked
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: would reach any IPv4 address
  ['fec0::', 10], // site-local (deprecated)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4) FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6) FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** Loopback, private, link-local, CGNAT, multicast, unspecified… — IPv4-mapped IPv6 forms (::ffff:10.0.0.1) included. */
export function isNonPublicAddress(address: string): boolean {
  return FORBIDDEN.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export const NON_PUBLIC_TARGET =
  'The URL points to a loopback, private or other non-public address (GATEWAY_WEBHOOK_ALLOW_PRIVATE allows them)';

/** A target refused by the address check: the delivery can never succeed. */
class RefusedTarget extends Error {
  override name = 'RefusedTarget';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** dns.lookup that fails when the name has a non-public address, for the socket of one request. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.some((a) => isNonPublicAddress(a.address))) return callback(new RefusedTarget(NON_PUBLIC_TARGET), '', 0);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
};

/**
 * Why a webhook URL given to the API must be refused, or undefined. A name that does not resolve
 * now is accepted (`https://example`): each delivery checks again.
 */
export async function refusedTarget(url: string): Promise<string | undefined> {
  const host = hostOf(new URL(url));
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve) =>
        dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found.map((a) => a.address))),
      );
  return addresses.some(isNonPublicAddress) ? NON_PUBLIC_TARGET : undefined;
}

/** How much of a receiver's answer body is kept, for staff to see what it said. */
export const EXCERPT_BYTES = 512;

/** Control characters but tab, line feed and carriage return: a text column takes no NUL, and a page shows none. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * The start of a receiver's answer as it is kept and shown to the account's staff: text, its
 * control characters replaced (PostgreSQL's text refuses NUL: the attempt could not be recorded,
 * and the delivery would be sent again), and anything that may be a card number masked to its
 * first six and last four digits (a receiver may echo one).
 */
export function excerptOf(body: Buffer): string {
  const text = body.subarray(0, EXCERPT_BYTES).toString('utf8').replace(CONTROL, '\uFFFD');
  return maskCardNumbers(text, maskCardNumber);
}

export interface PostOutcome {
  /** The receiver's answer, when one came. */
  statusCode?: number;
  /** The start of its body (EXCERPT_BYTES at most, as UTF-8 text), when it had one. */
  responseExcerpt?: string;
  /** Why no 2xx came: a connection failure, a timeout, a non-2xx status. */
  error?: string;
  /** The URL is refused (non-public address): trying again cannot help. */
  refused?: boolean;
}

export interface PostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  /** Lets deliveries reach loopback and private addresses (tests, a gateway inside a private network). */
  allowPrivate: boolean;
}

/** POSTs `body` and settles with the answer's status and the start of its body (the rest is dropped); never rejects. */
export function postJson(url: string, body: string, options: PostOptions): Promise<PostOutcome> {
  const target = new URL(url);
  if (!options.allowPrivate && isIP(hostOf(target)) && isNonPublicAddress(hostOf(target))) {
    return Promise.resolve({ error: NON_PUBLIC_TARGET, refused: true });
  }
  const bytes = Buffer.from(body, 'utf8');
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let request: ReturnType<typeof send>;
    try {
      request = send(target, {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json', 'content-length': String(bytes.length) },
        lookup: options.allowPrivate ? undefined : checkedLookup,
        // A connection per delivery: a pooled socket would outlive the check of its address.
        agent: false,
      });
    } catch (error) {
      // Node refuses some requests at once (a header value it cannot send): nothing was sent.
      resolve({ error: error instanceof Error ? error.message : String(error), refused: true });
      return;
    }
    // Covers the answer's body too: a receiver that never finishes it does not hold the socket.
    const timer = setTimeout(() => request.destroy(new Error(`No answer within ${options.timeoutMs / 1000} s`)), options.timeoutMs);
    request.on('close', () => clearTimeout(timer));
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const statusCode = response.statusCode ?? 0;
      const outcome: PostOutcome =
        statusCode >= 200 && statusCode < 300 ? { statusCode } : { statusCode, error: `The receiver answered ${statusCode}` };
      const chunks: Buffer[] = [];
      let size = 0;
      // Settles once the excerpt is full, the body ends or the connection closes (a timeout included): what came is kept.
      const settle = () => {
        const excerpt = excerptOf(Buffer.concat(chunks));
        resolve(excerpt ? { ...outcome, responseExcerpt: excerpt } : outcome);
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) {
          settle();
          response.destroy();
        }
      });
      response.on('end', settle);
      response.on('close', settle);
    });
    request.on('error', (error) => {
      if (answered) return;
      resolve(error instanceof RefusedTarget ? { error: error.message, refused: true } : { error: error.message });
    });
    request.end(bytes);
  });
}
