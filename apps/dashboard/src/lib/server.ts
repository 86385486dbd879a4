import type { AppRouter } from '@gateway/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { cookies } from 'next/headers';
import { config } from './config';

/** The core router at the gateway, from this server; with the cookie of a staff session when given. */
export function gatewayClient(cookie?: string) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${config.gatewayUrl}/trpc`, headers: cookie ? { cookie } : {} })] });
}

/** The core router from server components, as the staff member whose cookie the request carries. */
export async function serverTrpc() {
  return gatewayClient((await cookies()).toString());
}

/** The HTTP status of a failed call, e.g. 401 without a session, 404 for an unknown id. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
}
