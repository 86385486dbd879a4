import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * One pool of kept-alive connections per process and scheme: a connector call should not pay for a
 * TCP (or TLS) handshake. HTTPS checks the provider's certificate against the system's authorities.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, rejectUnauthorized: true });

export class HttpTimeoutError extends Error {
  override name = 'TimeoutError';
}

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when the answer has none (204). */
  json: unknown;
  /** Header names in lower case. */
  headers: IncomingHttpHeaders;
}

/**
 * Sends a JSON request (a body only when given) and reads the JSON answer, over node:http or
 * node:https by the URL's scheme (much cheaper per call than fetch). The whole exchange, body
 * included, must finish within `timeoutMs`. An answer that is not JSON rejects with a SyntaxError.
 */
export function requestJson(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<JsonAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const secure = url.startsWith('https:');
    const req = (secure ? httpsRequest : request)(url, {
      method,
      agent: secure ? httpsAgent : agent,
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
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, json: text === '' ? undefined : JSON.parse(text), headers: res.headers });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.end(payload);
  });
}
