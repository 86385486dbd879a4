import { NextResponse, type NextRequest } from 'next/server';
import { PATH_HEADER, config as settings } from './lib/config';

/**
 * The Content-Security-Policy of every page: scripts only with this request's nonce (Next puts it
 * on its own scripts, and 'strict-dynamic' lets them load the chunks they need; no inline script
 * runs without it), styles from here (and style attributes), images from here or data URIs (a
 * payment link's image), requests to this server and `connectTo` alone, so that a script which got
 * in could send what it reads nowhere else. No plugins, no <base>, forms posted here only, never
 * framed (X-Frame-Options too, next.config.ts).
 */
export function contentSecurityPolicy(nonce: string, connectTo: string[] = []): string {
  const development = process.env.NODE_ENV === 'development';
  return [
    "default-src 'self'",
    // React's development build evaluates code (call stacks); production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...connectTo].join(' '),
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every page gets its Content-Security-Policy with a nonce of its own (Next reads it from the
 * request's header and sets it on the scripts it renders), and the path asked for in a request
 * header (to come back to after signing in). The hosted payment page may also reach the gateway,
 * where the card is tokenised.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce, pathname.startsWith('/pay/') ? [new URL(settings.gatewayPublicUrl).origin] : []);
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

// Pages only: not the /trpc route handler (JSON), nor Next's static files.
export const config = { matcher: ['/((?!trpc/|_next/static|_next/image|icon\\.svg).*)'] };
