import type { IncomingMessage } from 'node:http';
import { appRouter, sessionTokenOf, toApiError, type Context, type Services } from '@gateway/api';
import { ApiError } from '@gateway/core';
import { TRPCError } from '@trpc/server';
import type { TRPCRequestInfo } from '@trpc/server/http';
import { nodeHTTPRequestHandler, type NodeHTTPRequest, type NodeHTTPResponse } from '@trpc/server/adapters/node-http';
import type { Logger } from 'pino';
import { bodyLimit, MAX_JSON_DEPTH, readRawBody } from './body';
import { clientAddressOf, errorHeaders, type TrustedProxies } from './client';
import { scanJson } from './json-scan';

/**
 * The REST path whose body limit a call has (1 MB, which holds a payment link's 512 KB image in
 * base64; 10 MB for batches): the largest of the procedures a batched call names.
 */
function limitPath(procedures: string): string {
  const paths = procedures.split(',').map((procedure) => `/${procedure.replace('.', '/')}`);
  return paths.reduce((largest, path) => (bodyLimit(path) > bodyLimit(largest) ? path : largest));
}

/** A refusal in tRPC's terms (its status for a batch) carrying the API error the body shows. */
function refused(code: TRPCError['code'], error: ApiError): TRPCError {
  return new TRPCError({ code, message: error.message, cause: error });
}

/**
 * Reads a call's input text as the REST API reads a body (a GET's `input` parameter, else the body,
 * which is left in `req.body` for tRPC) and says why it must not be parsed, if it must not: too large,
 * or nested deeper than any procedure's input needs (parsing is fine, but what follows recurses).
 */
async function inputRefusal(req: IncomingMessage & NodeHTTPRequest, procedures: string): Promise<TRPCError | undefined> {
  let text: string;
  if (req.method === 'GET') {
    text = new URL(req.url ?? '/', 'http://gateway').searchParams.get('input') ?? '';
  } else {
    try {
      text = (await readRawBody(req, limitPath(procedures))).toString('utf8');
    } catch (error) {
      if (error instanceof ApiError) return refused('PAYLOAD_TOO_LARGE', error);
      throw error;
    }
    req.body = text;
  }
  if (!scanJson(text, MAX_JSON_DEPTH).tooDeep) return undefined;
  return refused(
    'BAD_REQUEST',
    new ApiError('ValidationError', { message: `The input nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep` }),
  );
}

const headerOf = (req: IncomingMessage, name: string) => [req.headers[name]].flat()[0]?.trim().toLowerCase();

/**
 * Why a call must not run, if it must not. Calls that change something (every method but GET)
 * must be JSON, which a page of another origin can send only after a CORS preflight that /trpc
 * never grants (tRPC itself also takes multipart/form-data and application/octet-stream, which
 * any HTML form can send), and must come from the dashboard's own pages: a browser says where a
 * request comes from in Sec-Fetch-Site, or, if it is too old for that, in Origin. A client that
 * sends neither is not a browser, so carries no one's cookie but its own. A sign-in is a call of
 * its own (the dashboard's batch link sends it as a batch of one): a batch of them would check
 * many passwords in one request.
 */
function refusal(req: IncomingMessage, info: TRPCRequestInfo, dashboardOrigin: string): TRPCError | undefined {
  if (info.calls.length > 1 && info.calls.some((call) => call.path === 'staff.signIn')) {
    return refused('BAD_REQUEST', new ApiError('ValidationError', { message: 'Sign in with a call of its own, not in a batch' }));
  }
  if (req.method === 'GET') return undefined;
  if (headerOf(req, 'content-type')?.split(';')[0]?.trim() !== 'application/json') {
    return refused('UNSUPPORTED_MEDIA_TYPE', new ApiError('ValidationError', { http: 415, message: 'The request body must be JSON' }));
  }
  const site = headerOf(req, 'sec-fetch-site');
  const origin = headerOf(req, 'origin');
  if (site ? site !== 'same-origin' : origin !== undefined && origin !== dashboardOrigin) {
    return refused(
      'FORBIDDEN',
      new ApiError('AuthenticationAuthorizationError', { message: 'Only the dashboard’s own pages may call this' }),
    );
  }
  return undefined;
}

/**
 * Serves the core router over tRPC at /trpc/* for the dashboard, whose server proxies it so the
 * browser sees one origin. A staff member's session cookie sets ctx.account, so the procedures of
 * the REST API (charge search, capture…) serve the dashboard with no second implementation.
 * Another site cannot act with the cookie: see `refusal` (and the cookie is SameSite=Lax).
 */
export function createTrpcHandler(services: Services, logger: Logger, trustedProxies: TrustedProxies) {
  const dashboardOrigin = URL.canParse(services.config.dashboardUrl) ? new URL(services.config.dashboardUrl).origin : '';
  return async (req: IncomingMessage & NodeHTTPRequest, res: NodeHTTPResponse, path: string) => {
    const procedures = path.slice('/trpc/'.length);
    const badInput = await inputRefusal(req, procedures);
    return nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path: procedures,
      createContext: async ({ info }): Promise<Context> => {
        const problem = refusal(req, info, dashboardOrigin) ?? badInput;
        if (problem) throw problem;
        const token = sessionTokenOf(req.headers);
        const session = token ? await services.staff.bySessionToken(token) : null;
        return {
          services,
          request: { method: req.method ?? 'GET', path, headers: req.headers, clientAddress: clientAddressOf(req, trustedProxies) },
          response: { status: 200 },
          account: session?.account ?? null,
          staff: session?.staff ?? null,
        };
      },
      responseMeta: ({ ctx, errors, info }) => ({
        // One call's error answers with the API's status (a batch keeps tRPC's own).
        ...(errors[0] && !info?.isBatchCall ? { status: toApiError(errors[0]).http } : {}),
        headers: { ...(errors[0] && errorHeaders(errors[0])), ...(ctx?.response.cookies && { 'set-cookie': ctx.response.cookies }) },
      }),
      onError: ({ error, path: procedure }) => {
        if (toApiError(error).http >= 500) logger.error({ err: error.cause ?? error, procedure }, 'request failed');
      },
    });
  };
}
