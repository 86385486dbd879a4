import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stands between the gateway and the simulated acquirer and can lose answers: the request reaches
 * the acquirer (which acts on it), but the gateway's connection is cut before the answer arrives.
 * That is the unknown outcome a payment gateway must handle without moving money twice.
 */
export async function startFaultProxy(target: string) {
  const rules: Array<{ method: string; path: RegExp; remaining: number }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const rule = rules.find((r) => r.remaining > 0 && r.method === req.method && r.path.test(req.url ?? ''));
    if (rule) rule.remaining -= 1;
    const upstream = request(`${target}${req.url ?? ''}`, { method: req.method, headers: req.headers }, (answer) => {
      if (rule) {
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The next `times` answers to `method` requests whose path matches are lost. */
    loseAnswers(method: string, path: RegExp, times = 1) {
      rules.push({ method, path, remaining: times });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
