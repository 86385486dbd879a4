import type { IncomingHttpHeaders } from 'node:http';

/**
 * The dashboard session cookie: http-only (no script reads it), SameSite=Lax (not sent with
 * cross-site POSTs), Secure when the dashboard is served over https.
 */
export const SESSION_COOKIE = 'gateway_session';

function attributes(dashboardUrl: string): string {
  return `Path=/; HttpOnly; SameSite=Lax${dashboardUrl.startsWith('https:') ? '; Secure' : ''}`;
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
