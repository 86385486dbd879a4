import { Agent, request } from 'node:http';

/**
 * One pool of kept-alive connections per process: a connector call should not pay for a TCP
 * handshake. An idle connection is closed after 4 s, before the server would close it (Node's
 * servers do after 5 s): a request sent on a connection the server is closing fails as if the
 * acquirer could not be reached.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });

export class HttpTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Sends a JSON request (a body only when given) and reads the JSON answer, over node:http (much
 * cheaper per call than fetch). The whole exchange, body included, must finish within `timeoutMs`.
 */
export function requestJson(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(url, {
      method,
      agent,
      headers: payload ? { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length) } : headers,
    });
    const timer = setTimeout(() => req.destroy(new HttpTimeoutError()), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.end(payload);
  });
}
