import {
  externalTransStatus,
  type AuthenticationRequest,
  type AuthoriseRequest,
  type BrowserInfo,
  type Challenge,
  type ExternalThreeDs,
  type ThreeDsOutcome,
} from '../connector.js';
import { isObject } from './transformers.js';

/**
 * 3-D Secure at Adyen (Checkout v71), no I/O: the /payments fields of a payment the payer can
 * authenticate through Adyen's redirect, an authentication the merchant ran (`mpiData`), the
 * redirect `action` as a challenge, and the outcome Adyen reports in `threeDS2Result` and in the
 * 3-D Secure fields of `additionalData` (answers and AUTHORISATION notifications).
 */

type Json = Record<string, unknown>;

/**
 * What the connector sends for a browser field the gateway does not know: Adyen's description
 * requires all eight for 3-D Secure 2 on the web. A common desktop browser's values; the payer's
 * own are better (docs/providers/adyen.md).
 */
export const BROWSER_DEFAULTS: Readonly<Required<BrowserInfo>> = {
  acceptHeader: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  colorDepth: 24,
  javaEnabled: false,
  language: 'en',
  screenHeight: 1080,
  screenWidth: 1920,
  timeZoneOffset: 0,
  userAgent: 'Mozilla/5.0',
};

/**
 * What an authorisation adds to its /payments body for 3-D Secure (over the body's placeholder
 * returnUrl): the payer's authentication through Adyen's redirect, or one the merchant ran.
 */
export function threeDsFields(req: Pick<AuthoriseRequest, 'authentication' | 'externalThreeDs'>): Json {
  return {
    ...(req.authentication && authenticationFields(req.authentication)),
    ...(req.externalThreeDs && { mpiData: mpiDataOf(req.externalThreeDs) }),
  };
}

/** Adyen's limit on `origin`. */
const ORIGIN_LENGTH = 80;

/**
 * The /payments fields of a payment the payer can authenticate: Adyen's 3-D Secure 2 on the web,
 * always through a redirect to a page (never the native flow, which needs Adyen's own component),
 * back to the gateway's return URL. `request: 'any'` asks Adyen to authenticate whatever its rules say.
 */
export function authenticationFields(authentication: AuthenticationRequest): Json {
  const given = Object.fromEntries(Object.entries(authentication.browser).filter(([, value]) => value !== undefined));
  return {
    returnUrl: authentication.returnUrl,
    channel: 'Web',
    // Longer than Adyen takes: left out rather than cut (it serves the native flow, not used here).
    ...(authentication.origin.length <= ORIGIN_LENGTH && { origin: authentication.origin }),
    browserInfo: { ...BROWSER_DEFAULTS, ...given },
    authenticationData: {
      ...(authentication.request === 'any' && { attemptAuthentication: 'always' }),
      threeDSRequestData: { nativeThreeDS: 'disabled' },
    },
  };
}

/**
 * An authentication the merchant ran with its own 3-D Secure server, as Adyen's `mpiData`. Its one
 * transStatus stands for both the directory's answer and the authentication's; the authentication
 * response takes Y, A, N or U only, so a rejection (R) is the directory's answer alone.
 */
export function mpiDataOf(external: ExternalThreeDs): Json {
  const { transStatus } = external;
  return {
    cavv: external.authenticationValue,
    eci: external.eci,
    dsTransID: external.dsTransID,
    threeDSVersion: external.threeDsVersion,
    ...(transStatus !== undefined && { directoryResponse: transStatus }),
    ...(transStatus !== undefined && transStatus !== 'R' && { authenticationResponse: transStatus }),
  };
}

/** The challenge a RedirectShopper answer's `action` stands for; undefined when it is not an http(s) redirect. */
export function challengeOf(action: unknown): Challenge | undefined {
  if (!isObject(action) || action.type !== 'redirect' || typeof action.url !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(action.url);
  } catch {
    return undefined;
  }
  // The gateway sends the payer's browser there: nothing but a web page will do.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const method = action.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') return undefined;
  const data = isObject(action.data) ? action.data : {};
  if (!Object.values(data).every((value) => typeof value === 'string')) return undefined;
  return { redirect: { url: action.url, method, ...(method === 'POST' && { data: data as Record<string, string> }) } };
}

const TRANS_STATUSES: ReadonlySet<string> = new Set(['Y', 'A', 'N', 'R', 'U', 'C']);
const transStatusOf = (value: unknown) =>
  typeof value === 'string' && TRANS_STATUSES.has(value) ? (value as ThreeDsOutcome['transStatus']) : undefined;
const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * How the payer was authenticated, from what Adyen reports: `threeDS2Result` (the /payments/details
 * answer after a challenge) first, then the 3-D Secure fields of `additionalData` (Adyen sends them
 * when the merchant account's Additional data settings ask for them). Undefined when 3-D Secure did
 * not take part. `flow` is the caller's when it knows (a redirect was followed, or not); else
 * `threeDOfferedResponse`, the directory's answer, tells (C: challenged).
 */
export function threeDsOf(
  reported: { threeDS2Result?: unknown; additionalData?: unknown },
  flow?: ThreeDsOutcome['flow'],
): ThreeDsOutcome | undefined {
  const result = isObject(reported.threeDS2Result) ? reported.threeDS2Result : undefined;
  const data = isObject(reported.additionalData) ? reported.additionalData : {};
  if (!result && data.threeDOffered !== 'true' && data.threeDAuthenticated !== 'true') return undefined;
  const transStatus =
    transStatusOf(result?.transStatus) ??
    transStatusOf(data.threeDAuthenticatedResponse) ??
    (data.threeDAuthenticated === 'true' ? 'Y' : undefined);
  const directory = textOf(data.threeDOfferedResponse);
  const eci = textOf(result?.eci) ?? textOf(data.eci);
  const version = textOf(result?.messageVersion) ?? textOf(data.threeDSVersion);
  const shown = flow ?? (directory === undefined ? undefined : directory === 'C' ? 'challenge' : 'frictionless');
  return {
    ...(shown && { flow: shown }),
    ...(transStatus && { transStatus }),
    ...(eci && { eci }),
    ...(version && { version }),
    ...((data.liabilityShift === 'true' || data.liabilityShift === 'false') && { liabilityShift: data.liabilityShift === 'true' }),
  };
}

/** The outcome of a payment authenticated by the merchant: what it passed, and whether Adyen shifted the liability. */
export function externalOutcome(external: ExternalThreeDs, answer: { additionalData?: unknown }): ThreeDsOutcome {
  const liabilityShift = threeDsOf(answer)?.liabilityShift;
  return {
    transStatus: externalTransStatus(external),
    eci: external.eci,
    version: external.threeDsVersion,
    ...(liabilityShift !== undefined && { liabilityShift }),
  };
}
