import { config } from '../../../lib/config';

/** Hop-by-hop headers, and those fetch sets itself: never passed on. */
const NOT_PASSED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'expect']);

function passed(from: Headers, except: ReadonlySet<string>): Headers {
  const headers = new Headers();
  for (const [name, value] of from) if (!except.has(name) && name !== 'set-cookie') headers.set(name, value);
  return headers;
}

/**
 * Passes the browser's /trpc calls to the gateway (GATEWAY_URL), which owns the database, so the
 * session cookie stays first-party. A route handler rather than a proxy rewrite: Next answers an
 * external rewrite with `x-middleware-rewrite: <the gateway's internal address>`. The browser's
 * headers go on as they came (Sec-Fetch-Site, Origin and the cookie are what the gateway checks);
 * the answer comes back with its status, headers and cookies, streamed.
 */
async function forward(request: Request): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const answer = await fetch(`${config.gatewayUrl}${pathname}${search}`, {
    method: request.method,
    headers: passed(request.headers, NOT_PASSED),
    body: hasBody ? request.body : undefined,
    redirect: 'manual',
    cache: 'no-store',
    ...(hasBody && { duplex: 'half' }),
  } as RequestInit);
  const headers = passed(answer.headers, NOT_PASSED);
  for (const cookie of answer.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(answer.body, { status: answer.status, headers });
}

export { forward as GET, forward as POST };
