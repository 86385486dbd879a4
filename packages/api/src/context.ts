import type { IncomingHttpHeaders } from 'node:http';
import type { Account } from '@gateway/db';
import type { BrowserInfo } from '@gateway/providers';
import type { Services } from './services';
import type { StaffIdentity } from './services/staff';

/** Per-request context, built by the HTTP server for REST and tRPC calls alike. */
export interface Context {
  services: Services;
  request: {
    method: string;
    /** Request path, echoed as `resource` in error bodies. */
    path: string;
    headers: IncomingHttpHeaders;
    /** The client's address: the connection's, or what a trusted proxy forwarded (GATEWAY_TRUSTED_PROXIES). */
    clientAddress: string;
  };
  /** Success status chosen by the procedure's meta (201 for creations); Set-Cookie values to send. */
  response: { status: number; cookies?: string[] };
  /** The authenticated account; set by the key middleware (or a dashboard session). */
  account: Account | null;
  /** Which key the caller authenticated with (set with `account` by the key middleware; a dashboard session counts as the secret key). */
  auth?: 'public' | 'secret';
  /** The staff member signed in to the dashboard (tRPC requests with a session cookie only). */
  staff?: StaffIdentity | null;
}

export function header(ctx: Context, name: string): string | undefined {
  const value = ctx.request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The payer's browser as the request tells it, for the issuer's 3-D Secure risk checks: the
 * request's own User-Agent, Accept and Accept-Language (a merchant's back end should pass on its
 * payer's; docs/three-d-secure.md).
 */
export function browserOf(ctx: Context): BrowserInfo {
  return {
    userAgent: header(ctx, 'user-agent')?.slice(0, 512),
    acceptHeader: header(ctx, 'accept')?.slice(0, 512),
    language: header(ctx, 'accept-language')?.split(',')[0]?.split(';')[0]?.trim().slice(0, 35) || undefined,
  };
}
