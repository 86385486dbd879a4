import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { credentialVerdict, type CredentialCheck, type ProviderResult } from './connector.js';

/**
 * One pool of kept-alive connections per process and scheme: a connector call should not pay for a
 * TCP (or TLS) handshake. HTTPS checks the provider's certificate against the system's authorities.
 * An idle connection is closed after 4 s, before the server would close it (Node's servers do after
 * 5 s): a request sent on a connection the server is closing fails as if the provider could not be
 * reached.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, rejectUnauthorized: true, timeout: 4_000 });

export class HttpTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** An answer whose body is not JSON (a SyntaxError, as JSON.parse throws), with its HTTP status. */
export class UnreadableAnswerError extends SyntaxError {
  constructor(readonly status: number) {
    super(`The answer (HTTP ${status}) is not JSON`);
  }
}

/**
 * A credential check over HTTP: `send` makes the provider's harmless authenticated call; its status
 * is the verdict (credentialVerdict), an answer that is not JSON is not the provider's, and no
 * answer says whether the endpoint could not be reached or kept silent.
 */
export async function checkCredentialsWith(send: () => Promise<JsonAnswer>, timeoutMs: number): Promise<CredentialCheck> {
  try {
    return credentialVerdict((await send()).status);
  } catch (error) {
    if (error instanceof HttpTimeoutError) return { ok: false, cause: 'timed_out', timeoutMs };
    if (error instanceof UnreadableAnswerError) return { ok: false, cause: 'answered', httpStatus: error.status };
    return { ok: false, cause: 'unreachable' };
  }
}

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when the answer has none (204). */
  json: unknown;
  /** Header names in lower case. */
  headers: IncomingHttpHeaders;
}

/** An answer as text, with its HTTP status. */
export interface TextAnswer {
  status: number;
  text: string;
  /** Header names in lower case. */
  headers: IncomingHttpHeaders;
}

/**
 * Sends a request (a body only when given) and reads the answer as UTF-8 text, over node:http or
 * node:https by the URL's scheme (much cheaper per call than fetch). The whole exchange, body
 * included, must finish within `timeoutMs`.
 */
export function requestText(
  method: string,
  url: string,
  payload: Buffer | undefined,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const secure = url.startsWith('https:');
    const req = (secure ? httpsRequest : request)(url, {
      method,
      agent: secure ? httpsAgent : agent,
      headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
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
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers });
      });
    });
    req.end(payload);
  });
}

/**
 * Sends a JSON request (a body only when given) and reads the JSON answer (requestText). An answer
 * that is not JSON rejects with a SyntaxError.
 */
export async function requestJson(
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<JsonAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const {
    status,
    text,
    headers: answered,
  } = await requestText(method, url, payload, payload ? { ...headers, 'content-type': 'application/json' } : headers, timeoutMs);
  try {
    return { status, json: text === '' ? undefined : JSON.parse(text), headers: answered };
  } catch {
    throw new UnreadableAnswerError(status);
  }
}

/**
 * An answer as `reader` reads it; one without what the reader needs (it throws) is `unreadable`: the
 * outcome of the call is then unknown.
 */
export async function readAnswer<A, T>(
  pending: Promise<ProviderResult<A>>,
  reader: (answer: A) => T,
  unreadable: () => ProviderResult<never>,
): Promise<ProviderResult<T>> {
  const result = await pending;
  if (!result.ok) return result;
  try {
    return { ok: true, value: reader(result.value) };
  } catch {
    return unreadable();
  }
}
