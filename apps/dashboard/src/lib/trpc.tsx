'use client';

import type { AppRouter } from '@gateway/api';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * Request options of a call that moves money: its Idempotency-Key, so that a repeat of the same
 * request (a retry, a second submission) is answered with the first one's outcome, never run again.
 */
export const withIdempotencyKey = (idempotencyKey: string) => ({ context: { idempotencyKey } });

const idempotencyKeyOf = (context: Record<string, unknown>) =>
  typeof context.idempotencyKey === 'string' ? context.idempotencyKey : undefined;

/** The message of a failed call, as the gateway wrote it (its error body), for people to read. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const apiError = (error.data as { apiError?: { message: string } } | undefined)?.apiError;
    return apiError?.message ?? error.message;
  }
  return 'Something went wrong. Please try again.';
}

/** Field-by-field problems of a refused input (the error body's details), keyed by field path. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  return (error.data as { apiError?: { details: Record<string, string> | null } } | undefined)?.apiError?.details ?? {};
}

/**
 * Why the sign-in page is shown, carried in its `reason` query parameter: the session ended while
 * a page read data, or when an action was asked for. The gateway answers 401 before it acts, so
 * such an action was not carried out.
 */
export const SIGN_IN_REASONS = {
  expired: 'Your session has expired. Sign in again to carry on.',
  'not-carried-out': 'Your session expired before your last action: it was not carried out. Sign in, then try it again.',
} as const;

/** A session that ended (expired, signed out elsewhere) sends the browser back to the sign-in page, saying why. */
function signInAgainOn401(reason: keyof typeof SIGN_IN_REASONS) {
  return (error: unknown) => {
    const { pathname } = window.location;
    if (
      pathname !== '/sign-in' &&
      error instanceof TRPCClientError &&
      (error.data as { httpStatus?: number } | undefined)?.httpStatus === 401
    ) {
      window.location.assign(`/sign-in?${new URLSearchParams({ next: pathname, reason })}`);
    }
  };
}

/** React Query and the tRPC client of the core router, at /trpc on this origin (proxied to the gateway). */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: signInAgainOn401('expired') }),
        mutationCache: new MutationCache({ onError: signInAgainOn401('not-carried-out') }),
        defaultOptions: { queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: false } },
      }),
  );
  // A call with an Idempotency-Key goes alone (a batch's headers are shared by all its calls).
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => idempotencyKeyOf(op.context) !== undefined,
          true: httpLink({ url: '/trpc', headers: ({ op }) => ({ 'idempotency-key': idempotencyKeyOf(op.context) ?? '' }) }),
          false: httpBatchLink({ url: '/trpc' }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
