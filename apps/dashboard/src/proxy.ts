import { NextResponse, type NextRequest } from 'next/server';
import { config as settings } from './lib/config';

/**
 * The dashboard's browser calls the core router at /trpc on this origin; this server passes those
 * calls to the gateway (which owns the database), so the session cookie stays first-party.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  return NextResponse.rewrite(new URL(`${pathname}${search}`, settings.gatewayUrl));
}

export const config = { matcher: '/trpc/:path*' };
