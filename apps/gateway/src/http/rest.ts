import type { IncomingMessage, ServerResponse } from 'node:http';
import { appRouter, renderApiError, toApiError, type ApiErrorBody, type Context, type Services } from '@gateway/api';
import { clientAddressOf, errorHeaders, type TrustedProxies } from './client';
import { ApiError } from '@gateway/core';
import type { Logger } from 'pino';
import { maskDigits } from '../logger';
import { readJsonBody } from './body';
import { createOpenApiHandler } from './openapi-handler';

type Router = typeof appRouter;

/**
 * trpc-to-openapi matches routes in procedure order, so `/charge/{chargeId}` would swallow
 * `/charge/token`. Ordering procedures by how many path parameters they have puts every literal
 * route before the parameterised ones it could be mistaken for.
 */
export function literalRoutesFirst(router: Router): Router {
  const params = (p: unknown) =>
    ((p as { _def: { meta?: { openapi?: { path: string } } } })._def.meta?.openapi?.path.match(/\{/g) ?? []).length;
  const procedures = Object.fromEntries(Object.entries(router._def.procedures).sort(([, a], [, b]) => params(a) - params(b)));
  return { ...router, _def: { ...router._def, procedures } } as Router;
}

function sendError(res: ServerResponse, error: ApiError, body: ApiErrorBody) {
  res.statusCode = error.http;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

/**
 * Serves the REST API: reads the JSON body itself (size-limited, any casing of content type),
 * hands the request to trpc-to-openapi, and renders every error in the API's own error body.
 */
/**
 * The query string as trpc-to-openapi reads it (name → values), in an object without a prototype
 * and without the names that would reach one: `?constructor=1` must be an unknown parameter,
 * not Object.prototype.constructor. `Name[]` and `Name[0]` (how PHP and some JavaScript clients
 * spell repeated parameters) are `Name` given again: a parameter the schema takes as a list
 * gets every value, any other answers 400 when given more than once (never silently dropped).
 * Names are bound whatever their case, so names that differ only in case are one name given
 * again too (`?Reference=a&reference=b` must not filter on one of them).
 */
function queryOf(req: IncomingMessage): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null);
  const firstSpelling = new Map<string, string>();
  const search = (req.url ?? '').split('?').slice(1).join('?');
  for (const [spelled, value] of new URLSearchParams(search)) {
    const name = spelled.replace(/\[\d*\]$/, '');
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
    if (!firstSpelling.has(name.toLowerCase())) firstSpelling.set(name.toLowerCase(), name);
    (query[firstSpelling.get(name.toLowerCase()) ?? name] ??= []).push(value);
  }
  return query;
}

export function createRestHandler(services: Services, logger: Logger, trustedProxies: TrustedProxies) {
  const docsUrl = services.config.errorDocsUrl;
  const handler = createOpenApiHandler<Context>({
    router: literalRoutesFirst(appRouter),
    createContext: ({ req }): Context => ({
      services,
      request: {
        method: req.method ?? 'GET',
        path: pathOf(req),
        headers: req.headers,
        clientAddress: clientAddressOf(req, trustedProxies),
      },
      response: { status: 200 },
      account: null,
    }),
    responseMeta: ({ ctx, errors }) =>
      errors[0] ? { status: toApiError(errors[0]).http, headers: errorHeaders(errors[0]) } : { status: ctx?.response.status ?? 200 },
    onError: ({ error, path }) => {
      // Expected failures are answers; anything that becomes a 500 is a bug worth a log line.
      if (toApiError(error).http >= 500) logger.error({ err: error.cause ?? error, procedure: path }, 'request failed');
    },
  });

  return async (req: IncomingMessage, res: ServerResponse, requestPath: string): Promise<void> => {
    // Error bodies echo the path as `resource`: a card number in it must not come back in clear.
    const path = maskDigits(requestPath);
    try {
      const method = req.method ?? 'GET';
      if (!req.url?.startsWith('/')) throw new ApiError('ValidationError', { message: 'The request target must be a path' });
      (req as IncomingMessage & { query?: unknown }).query = queryOf(req);
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        (req as IncomingMessage & { body?: unknown }).body = await readJsonBody(req, requestPath);
        req.headers['content-type'] = 'application/json';
      }
    } catch (cause) {
      const error = toApiError(cause);
      sendError(res, error, renderApiError(error, path, docsUrl));
      return;
    }
    // The handler writes tRPC's error shape, as trpc-to-openapi does; swap in the API error body built by our
    // errorFormatter (data.apiError), stamped with the path the client called.
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      if (res.statusCode >= 400 && typeof chunk === 'string') {
        const shape = JSON.parse(chunk) as { data?: { apiError?: ApiErrorBody } };
        const body = shape.data?.apiError;
        // Errors raised before a procedure ran (unknown route) have no context for the docs link.
        if (body) return end(JSON.stringify({ ...body, type: `${docsUrl}#${body.code}`, resource: path }));
      }
      return end(chunk);
    }) as ServerResponse['end'];
    await handler(req, res);
  };
}

export function pathOf(req: IncomingMessage): string {
  const raw = (req.url ?? '/').split('?')[0] ?? '/';
  return raw.replace(/\/{2,}/g, '/');
}
