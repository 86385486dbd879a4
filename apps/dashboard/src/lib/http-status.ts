import { TRPCClientError } from '@trpc/client';

/** The HTTP status of a failed call, e.g. 401 without a session, 404 for an unknown id; undefined when no answer came. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
}

/**
 * Whether a failed call may have been carried out: no answer, a server error, or 409 (the same
 * Idempotency-Key still in flight). Any other 4xx is a refusal: nothing was done.
 */
export function mayHaveActed(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === undefined || status >= 500 || status === 409;
}
