// Starts the built dashboard as `next start` does, with one difference: the X-Forwarded-For that
// Next and the /trpc route pass on to the gateway holds the client's address as this server saw
// it. `next start` keeps a header the browser sent itself (it adds the socket's address only when
// there is none), so a browser could name any address and get past the gateway's per-address
// sign-in limits. Only peers listed in DASHBOARD_TRUSTED_PROXIES (a reverse proxy in front of the
// dashboard; none by default) are believed about the client's address. docs/dashboard.md.
//
//   node server.mjs [-H host] [-p port]     (defaults: HOST or 127.0.0.1, PORT or 3001)
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import next from 'next';
import proxyaddr from 'proxy-addr';

const { values } = parseArgs({
  options: { hostname: { type: 'string', short: 'H' }, port: { type: 'string', short: 'p' } },
});
const hostname = values.hostname ?? process.env.HOST ?? '127.0.0.1';
const port = Number(values.port ?? process.env.PORT ?? 3001);
const trusted = (process.env.DASHBOARD_TRUSTED_PROXIES ?? '')
  .split(',')
  .map((entry) => entry.trim())
  .filter(Boolean);
const trust = proxyaddr.compile(trusted);

const app = next({ dev: false, dir: fileURLToPath(new URL('.', import.meta.url)), hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  request.headers['x-forwarded-for'] = proxyaddr(request, trust);
  void handle(request, response);
});
server.listen(port, hostname, () => console.log(`dashboard on http://${hostname}:${port}`));

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}
