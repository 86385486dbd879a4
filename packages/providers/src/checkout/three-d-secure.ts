import type { AuthenticationRequest, Challenge, ThreeDsOutcome } from '../connector.js';
import { isObject, type Json } from './transformers.js';

/**
 * 3-D Secure at Checkout.com, no I/O: the /payments fields of a payment the payer can authenticate
 * (`3ds.enabled`, back to the gateway's return URL whatever the outcome), the `_links.redirect` of
 * its 202 answer as a challenge, and the outcome a payment's `3ds` object reports.
 */

/**
 * What a payment adds for 3-D Secure. With the payer present, Checkout.com's hosted authentication,
 * success and failure both back to the gateway, which then asks for the payment; without, 3-D
 * Secure is off, so Checkout.com never answers with a redirect nobody will follow.
 */
export function threeDsFields(authentication: AuthenticationRequest | undefined): Json {
  if (!authentication) return { '3ds': { enabled: false } };
  return {
    '3ds': {
      enabled: true,
      ...(authentication.request === 'any' && { challenge_indicator: 'challenge_requested' }),
    },
    success_url: authentication.returnUrl,
    failure_url: authentication.returnUrl,
  };
}

/** The challenge a 202 Pending answer's `_links.redirect` stands for; undefined when it is not an http(s) page. */
export function challengeOf(answer: Json): Challenge | undefined {
  const links = isObject(answer._links) ? answer._links : {};
  const redirect = isObject(links.redirect) ? links.redirect.href : undefined;
  if (typeof redirect !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(redirect);
  } catch {
    return undefined;
  }
  // The gateway sends the payer's browser there: nothing but a web page will do.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return { redirect: { url: redirect, method: 'GET' } };
}

const TRANS_STATUSES: ReadonlySet<string> = new Set(['Y', 'A', 'N', 'R', 'U', 'C']);

/** How the payer was authenticated, from a payment's `3ds` object (GET /payments/{id}); undefined without one. */
export function threeDsOf(payment: Json): ThreeDsOutcome | undefined {
  const threeDs = payment['3ds'];
  if (!isObject(threeDs)) return undefined;
  const { authentication_response: response, eci, version, challenged } = threeDs;
  const transStatus =
    typeof response === 'string' && TRANS_STATUSES.has(response) ? (response as ThreeDsOutcome['transStatus']) : undefined;
  return {
    ...(typeof challenged === 'boolean' && { flow: challenged ? 'challenge' : 'frictionless' }),
    ...(transStatus && { transStatus }),
    ...(typeof eci === 'string' && eci !== '' && { eci }),
    ...(typeof version === 'string' && version !== '' && { version }),
    ...(transStatus && { liabilityShift: transStatus === 'Y' || transStatus === 'A' }),
  };
}
