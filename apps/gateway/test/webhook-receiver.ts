import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { GatewayOptions } from '../src/gateway';
import { createAccount, startTestGateway, type TestGateway } from './harness';

/** One webhook request as the receiver got it. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes, as text. */
  body: string;
  meta: { messageId: string; timestamp: string; type: string; eventType: string };
  data: Record<string, unknown>;
}

/** How the receiver answers one request: 200, 500, or only after `SLOW_MS` (past the gateway's timeout). */
export type Answer = 'ok' | 'fail' | 'slow';

export const SLOW_MS = 1_500;

/**
 * X-Payfurl-Signature as the client SDKs verify it (wire.md §4), written here independently of
 * the gateway's code: Base64 of HMAC-SHA256 keyed with the signing key's text, over the raw body.
 */
export function signatureOf(signingKey: string, body: string): string {
  return createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(Buffer.from(body, 'utf8')).digest('base64');
}

/**
 * A webhook receiver in the test process, on 127.0.0.1: it keeps every request, answers each
 * path as planned (200 unless told otherwise), and can go down and come back on the same port.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<string, Answer[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const { meta, data } = JSON.parse(body) as Pick<Received, 'meta' | 'data'>;
      received.push({ path, headers: req.headers, body, meta, data });
      const answer = plans.get(path)?.shift() ?? 'ok';
      if (answer === 'slow') {
        setTimeout(() => res.writableEnded || res.end(), SLOW_MS).unref();
        return;
      }
      res.statusCode = answer === 'fail' ? 500 : 200;
      res.end(answer === 'fail' ? 'no' : 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /**
     * The requests to `path` in the order their events happened (`meta.timestamp`), as
     * docs/webhooks.md tells receivers to order them: deliveries are independent, so arrival order
     * is not the events' order. Attempts of one event stay in the order they arrived.
     */
    at: (path: string) =>
      received.filter((r) => r.path === path).sort((x, y) => Date.parse(x.meta.timestamp) - Date.parse(y.meta.timestamp)),
    all: () => [...received],
    /** The next answers to `path`, in order; then 200 again. */
    plan(path: string, ...answers: Answer[]) {
      plans.set(path, answers);
    },
    /** Stops listening: connections are refused until `up()`. */
    async down() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async up() {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: async () => {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The distinct bodies received under each messageId: exactly one each when no message was ever sent as two events. */
export function bodiesByMessage(requests: Received[]): Map<string, Set<string>> {
  const bodies = new Map<string, Set<string>>();
  for (const r of requests) bodies.set(r.meta.messageId, (bodies.get(r.meta.messageId) ?? new Set()).add(r.body));
  return bodies;
}

/** Fails unless the request carries the account's signature over its exact body. */
export function expectSigned(request: Received, signingKey: string) {
  expect(request.headers['x-payfurl-signature']).toBe(signatureOf(signingKey, request.body));
  expect(request.headers['content-type']).toBe('application/json');
}

/** Runs every job of `gateway` due now (deliveries included) until none is left. */
export async function drain(gateway: TestGateway) {
  while ((await gateway.gateway.worker.runDue()) > 0);
}

/**
 * A gateway on a clock the test moves, and a receiver, for the tests of one file (started and
 * closed by the file's hooks); `options` add to the gateway's.
 */
export function webhookTestbed(options: Partial<GatewayOptions> = {}) {
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const bed = {
    t: undefined as unknown as TestGateway,
    receiver: undefined as unknown as Receiver,
    clock,
    drain: () => drain(bed.t),
    /** Moves the clock on and runs what fell due. */
    async advance(ms: number) {
      offsetMs += ms;
      await drain(bed.t);
    },

    /** An account subscribed to `types` at `path` of the receiver, with the key its deliveries are signed with. */
    async subscribedAccount(path: string, types: string[], authorization = 'Bearer subscription-secret') {
      const a = await createAccount(bed.t);
      const { status, body } = await a.api.post('/webhook/subscription', { url: bed.receiver.url(path), authorization, types });
      expect(status).toBe(200);
      const signingKey = await bed.t.gateway.services.webhooks.signingKey({ id: a.accountId });
      return { a, subscriptionId: String(body.webhookSubscriptionId), signingKey };
    },
  };
  beforeAll(async () => {
    bed.t = await startTestGateway({ clock, ...options });
    bed.receiver = await startReceiver();
  });
  afterAll(async () => {
    await bed.receiver.close();
    await bed.t.close();
  });
  return bed;
}
