import type { RequestListener, Server, ServerResponse } from 'node:http';

export interface DrainableServer {
  /** True from the moment `drain()` is called. */
  readonly draining: boolean;
  /**
   * Stops the server without cutting an answer short: it accepts no new connection, closes the idle
   * keep-alive ones, answers every request it has received with `Connection: close` (so the client
   * opens its next connection elsewhere) and resolves true once the last connection has closed. At
   * `timeoutMs` it cuts the connections still open and resolves false.
   */
  drain(timeoutMs: number): Promise<boolean>;
}

/** Serves `listener` on `server`, keeping track of the answers in progress so that `drain()` can end their connections after them. */
export function serveDrainable(server: Server, listener: RequestListener): DrainableServer {
  const answering = new Set<ServerResponse>();
  let draining = false;

  /** The answer says `Connection: close` if it still can; once it is sent, its connection is closed if idle. */
  const endConnectionAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
  };

  server.on('request', (req, res) => {
    answering.add(res);
    res.once('close', () => answering.delete(res));
    if (draining) endConnectionAfter(res);
    listener(req, res);
  });

  return {
    get draining() {
      return draining;
    },
    async drain(timeoutMs) {
      draining = true;
      answering.forEach(endConnectionAfter);
      // close() stops listening and closes idle connections; its callback comes once none is left.
      const closed = new Promise<boolean>((resolve) => server.close(() => resolve(true)));
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([closed, new Promise<boolean>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)))]);
      clearTimeout(timer);
      if (!drained) server.closeAllConnections();
      return drained;
    },
  };
}
