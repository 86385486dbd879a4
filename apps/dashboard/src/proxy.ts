import { NextResponse, type NextRequest } from 'next/server';
import { PATH_HEADER, config as settings } from './lib/config';

/**
 * The dashboard's browser calls the core router at /trpc on this origin; this server passes those
 * calls to the gateway (which owns the database), so the session cookie stays first-party. Other
 * pages get the path asked for in a request header.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.startsWith('/trpc/')) return NextResponse.rewrite(new URL(`${pathname}${search}`, settings.gatewayUrl));
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/trpc/:path*', '/((?!_next/|pay/|sign-in|icon\\.svg).*)'] };
