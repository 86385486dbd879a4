'use client';

import type { AppRouter } from '@gateway/api';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

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

/** A session that ended (expired, signed out elsewhere) sends the browser back to the sign-in page. */
function signInAgainOn401(error: unknown) {
  const { pathname } = window.location;
  if (
    pathname !== '/sign-in' &&
    error instanceof TRPCClientError &&
    (error.data as { httpStatus?: number } | undefined)?.httpStatus === 401
  ) {
    window.location.assign(`/sign-in?next=${encodeURIComponent(pathname)}`);
  }
}

/** React Query and the tRPC client of the core router, at /trpc on this origin (proxied to the gateway). */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: signInAgainOn401 }),
        mutationCache: new MutationCache({ onError: signInAgainOn401 }),
        defaultOptions: { queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: false } },
      }),
  );
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/trpc' })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
