import type { AppRouter } from '@gateway/api';
import { dehydrate, QueryClient, type DehydratedState, type FetchQueryOptions, type QueryKey } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { config } from './config';
import { httpStatusOf } from './http-status';

/** The core router at the gateway, from this server; with the cookie of a staff session when given. */
export function gatewayClient(cookie?: string) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${config.gatewayUrl}/trpc`, headers: cookie ? { cookie } : {} })] });
}

/** The core router from server components, as the staff member whose cookie the request carries. */
export async function serverTrpc() {
  return gatewayClient((await cookies()).toString());
}

/**
 * The record a detail page shows, read on the server before anything of the page is sent, so that
 * an id the account does not have (another account's, or no id at all: 404 or 400) answers the
 * segment's not-found page with HTTP 404. The answer goes to the page's client component through
 * React Query's cache (render it inside `<HydrationBoundary state={…}>`): it is not read twice.
 */
export async function loadOr404<TData, TError, TKey extends QueryKey>(
  query: (trpc: TRPCOptionsProxy<AppRouter>) => FetchQueryOptions<TData, TError, TData, TKey>,
): Promise<DehydratedState> {
  const queryClient = new QueryClient();
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: await serverTrpc(), queryClient });
  await queryClient.fetchQuery(query(trpc)).catch((error: unknown) => {
    const status = httpStatusOf(error);
    if (status === 404 || status === 400) notFound();
    throw error;
  });
  return dehydrate(queryClient);
}
