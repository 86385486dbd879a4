import type { IncomingHttpHeaders } from 'node:http';

/**
 * The dashboard session cookie: http-only (no script reads it), SameSite=Lax (not sent with
 * cross-site POSTs), and Secure (never sent over plain http to another host) unless the dashboard
 * is served over plain http to other machines, where a browser would refuse to keep it.
 */
export const SESSION_COOKIE = 'gateway_session';

/** Hosts browsers count as a secure context over plain http (this machine), as Chromium and Firefox do. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';
}

/** Whether the cookie is Secure for a dashboard served at this URL. */
export function secureCookieFor(dashboardUrl: string): boolean {
  if (!URL.canParse(dashboardUrl)) return true;
  const url = new URL(dashboardUrl);
  return url.protocol !== 'http:' || isLoopback(url.hostname);
}

function attributes(dashboardUrl: string): string {
  return `Path=/; HttpOnly; SameSite=Lax${secureCookieFor(dashboardUrl) ? '; Secure' : ''}`;
}

export function sessionCookie(token: string, expiresAt: Date, dashboardUrl: string): string {
  return `${SESSION_COOKIE}=${token}; Expires=${expiresAt.toUTCString()}; ${attributes(dashboardUrl)}`;
}

export function clearedSessionCookie(dashboardUrl: string): string {
  return `${SESSION_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes(dashboardUrl)}`;
}

/** The session token a request carries, if any. */
export function sessionTokenOf(headers: IncomingHttpHeaders): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value.length > 0) return value.join('=') || undefined;
  }
  return undefined;
}
