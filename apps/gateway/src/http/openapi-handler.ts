import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError, type AnyRouter, type ProcedureType } from '@trpc/server';
import { getErrorShape, type AnyProcedure } from '@trpc/server/unstable-core-do-not-import';
import {
  acceptsRequestBody,
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
} from 'trpc-to-openapi';

/** Where an OpenAPI operation goes, worked out once at start-up. */
interface Route {
  pattern: RegExp;
  /** The procedure, called as tRPC's caller calls it, without building a caller per request. */
  procedure: AnyProcedure;
  /** The procedure's path in the router (`charge.createWithCard`). */
  procedurePath: string;
  type: ProcedureType;
  /** False when the input schema is void: the procedure is called without input. */
  takesInput: boolean;
  /** Query parameters the schema takes as arrays: a single value is wrapped in one. */
  arrayParameters: string[];
}

export interface OpenApiHandlerOptions<TContext> {
  router: AnyRouter;
  createContext(opts: { req: IncomingMessage; res: ServerResponse }): TContext;
  /** The status of an answer (from the context on success, from the error otherwise) and headers to add. */
  responseMeta(opts: { ctx: TContext | undefined; errors: TRPCError[] }): { status: number; headers?: Record<string, string> };
  onError?(opts: { error: TRPCError; path: string | undefined }): void;
}

function isArraySchema(schema: unknown): boolean {
  const kind = (s: unknown) => (s as { _zod?: { def?: { type?: string } } })?._zod?.def?.type;
  if (kind(schema) === 'array') return true;
  return kind(schema) === 'optional' && kind((schema as { unwrap(): unknown }).unwrap()) === 'array';
}

function routesOf(router: AnyRouter): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  forEachOpenApiProcedure(router._def.procedures, ({ path, type, procedure, meta: { openapi } }) => {
    if (type === 'subscription') return;
    const unwrapped = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
    const isObject = zodSupportsCoerce && instanceofZodTypeObject(unwrapped);
    // trpc-to-openapi does this on every request; its effect (coercion switched on for number and
    // boolean leaves, which the schemas avoid with uncoerced()) is the same done once.
    if (isObject) coerceSchema(unwrapped);
    const shape: Record<string, unknown> = isObject ? (unwrapped as unknown as { shape: Record<string, unknown> }).shape : {};
    const route: Route = {
      pattern: getPathRegExp(normalizePath(openapi.path)),
      procedure: procedure as AnyProcedure,
      procedurePath: path,
      type,
      takesInput: !instanceofZodTypeLikeVoid(unwrapped),
      arrayParameters: Object.keys(shape).filter((key) => isArraySchema(shape[key])),
    };
    routes.set(openapi.method, [...(routes.get(openapi.method) ?? []), route]);
  });
  return routes;
}

/** The query as trpc-to-openapi's node adapter reads `req.query`: one value as itself, several as an array. */
function queryInput(req: IncomingMessage): Record<string, unknown> {
  const query = ((req as IncomingMessage & { query?: Record<string, string[] | string> }).query ?? {}) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  return input;
}

/**
 * Serves the router's OpenAPI operations over node:http exactly as trpc-to-openapi's
 * `createOpenApiNodeHttpHandler` does (same routes, matched in the same order by its own path
 * patterns, same input, same success and error bodies), for less per call: the routes and their
 * schemas are worked out once instead of on every request, and no Fetch `Request` with an
 * `AbortController` is built for a signal nothing reads. The body (`req.body`) and query
 * (`req.query`) are read beforehand, by rest.ts.
 */
export function createOpenApiHandler<TContext>({ router, createContext, responseMeta, onError }: OpenApiHandlerOptions<TContext>) {
  const routes = routesOf(router);

  function send(res: ServerResponse, { status, headers }: { status: number; headers?: Record<string, string> }, body: unknown) {
    res.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  }

  function match(method: string, path: string) {
    for (const route of routes.get(method) ?? []) {
      const found = route.pattern.exec(path);
      if (found) return { route, pathInput: found.groups ?? {} };
    }
    return undefined;
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = new URL(`http://127.0.0.1${req.url ?? '/'}`);
    const found = match(method, normalizePath(url.pathname));
    let input: Record<string, unknown> | undefined;
    let ctx: TContext | undefined;
    try {
      if (!found) throw new TRPCError({ message: 'Not found', code: 'NOT_FOUND' });
      const { route, pathInput } = found;
      if (route.takesInput) {
        const useBody = acceptsRequestBody(method as 'GET');
        input = { ...(useBody ? (req as IncomingMessage & { body?: object }).body : queryInput(req)), ...pathInput };
        if (!useBody)
          for (const key of route.arrayParameters) if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
      }
      ctx = createContext({ req, res });
      const data = await route.procedure({
        path: route.procedurePath,
        getRawInput: async () => input,
        ctx,
        type: route.type,
        signal: undefined,
        batchIndex: 0,
      });
      send(res, responseMeta({ ctx, errors: [] }), data);
    } catch (cause) {
      const error =
        cause instanceof TRPCError ? cause : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error', cause });
      const path = found?.route.procedurePath;
      onError?.({ error, path });
      const shape = getErrorShape({ config: router._def._config, error, type: found?.route.type ?? 'unknown', path, input, ctx });
      send(res, responseMeta({ ctx, errors: [error] }), { ...shape, code: error.code });
    }
  };
}
