/** The dashboard's configuration: the only module that reads process.env (read at run time, on the server). */
export const config = {
  /** Where this server reaches the gateway (tRPC at /trpc, and the hosted page's public data). */
  gatewayUrl: (process.env.GATEWAY_URL || 'http://127.0.0.1:3000').replace(/\/+$/, ''),
  /** Where payers' browsers reach the gateway to tokenise their card; default: GATEWAY_URL. */
  gatewayPublicUrl: (process.env.GATEWAY_PUBLIC_URL || process.env.GATEWAY_URL || 'http://127.0.0.1:3000').replace(/\/+$/, ''),
};

/** Set by the proxy on page requests: the path asked for, to come back to after signing in. */
export const PATH_HEADER = 'x-dashboard-path';
