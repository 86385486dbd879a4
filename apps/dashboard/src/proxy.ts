import { NextResponse, type NextRequest } from 'next/server';
import { PATH_HEADER, config as settings } from './lib/config';

/**
 * The hosted payment page's Content-Security-Policy: scripts and styles from this server only
 * (Next's inline bootstrap scripts included), images from here or data URIs (the merchant's
 * image), and requests to this server and the gateway alone, so that a script which got in could
 * send the card it reads nowhere else. Framing is refused (X-Frame-Options too, next.config.ts).
 */
export function paymentPagePolicy(gatewayPublicUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(gatewayPublicUrl).origin}`,
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The dashboard's browser calls the core router at /trpc on this origin; this server passes those
 * calls to the gateway (which owns the database), so the session cookie stays first-party. The
 * hosted payment page gets its Content-Security-Policy; other pages get the path asked for in a
 * request header.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith('/trpc/')) return NextResponse.rewrite(new URL(`${pathname}${search}`, settings.gatewayUrl));
  if (pathname.startsWith('/pay/')) {
    const response = NextResponse.next();
    response.headers.set('Content-Security-Policy', paymentPagePolicy(settings.gatewayPublicUrl));
    return response;
  }
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/trpc/:path*', '/pay/:path*', '/((?!_next/|pay/|sign-in|icon\\.svg).*)'] };
