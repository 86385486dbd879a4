import { TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ApiError, type ErrorName } from '@gateway/core';
import { z } from 'zod';

/** The error body every client SDK parses (see docs/api.md). */
export const apiErrorBodySchema = z
  .object({
    message: z.string(),
    code: z.number().int(),
    type: z.string(),
    isRetryable: z.boolean(),
    resource: z.string(),
    details: z.record(z.string(), z.string()).nullable(),
    gatewayCode: z.string().nullable(),
    gatewayMessage: z.string().nullable(),
  })
  .meta({ description: 'The error body of every non-2xx answer' });

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Lets a Zod refinement choose the API error for its failure, e.g. 5 Invalid Card Number. */
export function issueParams(errorName: ErrorName): { params: { errorName: ErrorName } } {
  return { params: { errorName } };
}

function fromZodError(error: z.ZodError): ApiError {
  const chosen = error.issues.find((i) => i.code === 'custom' && typeof i.params?.errorName === 'string');
  if (chosen?.code === 'custom') return new ApiError(chosen.params?.errorName as ErrorName);
  const details: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(body)';
    details[path] ??= issue.message;
  }
  return new ApiError('ValidationError', { message: 'The request is not valid', details });
}

const TRPC_CODES: Partial<Record<TRPCError['code'], { http: number; message: string; name: ErrorName }>> = {
  // What tRPC refuses before a procedure's own validation: input that is not JSON, or not of a call's shape.
  BAD_REQUEST: { http: 400, message: 'The input is not valid', name: 'ValidationError' },
  NOT_FOUND: { http: 404, message: 'No such operation', name: 'UnknownError' },
  PARSE_ERROR: { http: 400, message: 'The input is not valid JSON', name: 'ValidationError' },
  PAYLOAD_TOO_LARGE: { http: 413, message: 'The request body is too large', name: 'ValidationError' },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, message: 'The request body must be JSON', name: 'ValidationError' },
  METHOD_NOT_SUPPORTED: { http: 405, message: 'Method not allowed', name: 'UnknownError' },
  TOO_MANY_REQUESTS: { http: 429, message: 'Too many requests', name: 'RateLimitingApplied' },
};

/**
 * Turns anything thrown while serving a request into an ApiError: our own errors as they are,
 * input validation into 90 (or the code a refinement chose), known transport problems into their
 * 4xx, and everything else into a 500 whose message reveals nothing.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    if (error.cause instanceof z.ZodError && error.code === 'BAD_REQUEST') return fromZodError(error.cause);
    const known = TRPC_CODES[error.code];
    if (known) return new ApiError(known.name, { http: known.http, message: known.message });
  }
  return new ApiError('UnknownError', { http: 500, message: 'Internal error' });
}

export function renderApiError(error: ApiError, resource: string, docsUrl: string): ApiErrorBody {
  return {
    message: error.message,
    code: error.code,
    type: `${docsUrl}#${error.code}`,
    isRetryable: error.retryable,
    resource,
    details: error.details ?? null,
    gatewayCode: error.gatewayCode ?? null,
    gatewayMessage: error.gatewayMessage ?? null,
  };
}

/** tRPC's names of the statuses the API answers with (its own table is not a public export). */
const TRPC_CODE_BY_HTTP: Readonly<Record<number, TRPC_ERROR_CODE_KEY>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/**
 * The tRPC code (name and JSON-RPC number) that says what an API error's HTTP status says: an
 * ApiError thrown in a procedure is not a TRPCError, so tRPC would label a 404 INTERNAL_SERVER_ERROR.
 */
export function trpcCodeOf(http: number) {
  const key = TRPC_CODE_BY_HTTP[http] ?? (http < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR');
  return { key, number: TRPC_ERROR_CODES_BY_KEY[key] };
}
