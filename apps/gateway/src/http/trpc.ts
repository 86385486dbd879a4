import type { IncomingMessage } from 'node:http';
import { appRouter, sessionTokenOf, toApiError, type Context, type Services } from '@gateway/api';
import { nodeHTTPRequestHandler, type NodeHTTPRequest, type NodeHTTPResponse } from '@trpc/server/adapters/node-http';
import type { Logger } from 'pino';
import { bodyLimit } from './body';

/**
 * The body limit of a call: as on the REST API (1 MB, which holds a payment link's 512 KB image in
 * base64; 10 MB for batches), for the largest of the procedures a batched call names.
 */
function callBodyLimit(procedures: string): number {
  return Math.max(...procedures.split(',').map((procedure) => bodyLimit(`/${procedure.replace('.', '/')}`)));
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The client's address: the socket's, or the one a proxy on this machine (the dashboard's server) forwarded. */
function clientAddress(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.at(-1) : forwarded)?.split(',').at(-1)?.trim();
  return LOOPBACK.has(peer) && last ? last : peer;
}

/**
 * Serves the core router over tRPC at /trpc/* for the dashboard, whose server proxies it so the
 * browser sees one origin. A staff member's session cookie sets ctx.account, so the procedures of
 * the REST API (charge search, capture…) serve the dashboard with no second implementation.
 * Cross-site requests cannot use the cookie: it is SameSite=Lax, and tRPC takes mutations only as
 * JSON, which a cross-origin page can send only after a CORS preflight that /trpc never grants.
 */
export function createTrpcHandler(services: Services, logger: Logger) {
  return (req: IncomingMessage & NodeHTTPRequest, res: NodeHTTPResponse, path: string) => {
    const procedures = path.slice('/trpc/'.length);
    return nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path: procedures,
      maxBodySize: callBodyLimit(procedures),
      createContext: async (): Promise<Context> => {
        const token = sessionTokenOf(req.headers);
        const session = token ? await services.staff.bySessionToken(token) : null;
        return {
          services,
          request: { method: req.method ?? 'GET', path, headers: req.headers, ip: clientAddress(req) },
          response: { status: 200 },
          account: session?.account ?? null,
          staff: session?.staff ?? null,
        };
      },
      responseMeta: ({ ctx, errors, info }) => ({
        // One call's error answers with the API's status (a batch keeps tRPC's own).
        ...(errors[0] && !info?.isBatchCall ? { status: toApiError(errors[0]).http } : {}),
        ...(ctx?.response.cookies ? { headers: { 'set-cookie': ctx.response.cookies } } : {}),
      }),
      onError: ({ error, path: procedure }) => {
        if (toApiError(error).http >= 500) logger.error({ err: error.cause ?? error, procedure }, 'request failed');
      },
    });
  };
}
