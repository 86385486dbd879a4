import type { IncomingMessage, ServerResponse } from 'node:http';
import { appRouter } from '@gateway/api';

type ProcedureMeta = { browser?: boolean; openapi?: { method: string; path: string } };

/** Method and path pattern of every REST route a browser calls with the public key (meta.browser). */
function browserRoutes(): Array<{ method: string; path: RegExp }> {
  return Object.values(appRouter._def.procedures).flatMap((procedure) => {
    const meta = (procedure as unknown as { _def: { meta?: ProcedureMeta } })._def.meta;
    if (!meta?.browser || !meta.openapi) return [];
    return [{ method: meta.openapi.method, path: new RegExp(`^${meta.openapi.path.replace(/\{\w+\}/g, '[^/]+')}/?$`) }];
  });
}

/**
 * CORS for the operations that browsers call with the public key (publicKeyOperation: tokenising a
 * card, device-wallet charges): any origin may call them, since they carry no cookies and the
 * public key is public. Their preflights (OPTIONS) are answered here. Routes of the secret key
 * get no CORS headers: a browser must never hold that key.
 *
 * Returns true when it has answered the request itself (a preflight).
 */
export function createCors() {
  const routes = browserRoutes();
  return (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    const methods = routes.filter((route) => route.path.test(path)).map((route) => route.method);
    if (req.method === 'OPTIONS' && methods.length > 0) {
      res.statusCode = 200;
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-methods', methods.join(', '));
      res.setHeader('access-control-allow-headers', 'content-type, x-publickey, providerid, idempotency-key');
      res.setHeader('access-control-max-age', '600');
      res.setHeader('content-length', '0');
      res.end();
      return true;
    }
    if (methods.includes(req.method ?? '')) res.setHeader('access-control-allow-origin', '*');
    return false;
  };
}
