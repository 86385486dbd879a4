import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import qs from 'qs';
import { IMPLEMENTED, StripeBehaviour, type Answer, type ChallengeOutcome, type RefundStatus } from './behaviour.js';
import { CHALLENGE_PATH, serveChallengePage } from './challenge-page.js';
import { DESCRIPTION_API_VERSION, stripeContract, type Operation } from './contract.js';
import { postEvent, signStripePayload } from './events.js';
import { newId, type Json } from './objects.js';

/**
 * A stateful fake of Stripe's API for the calls the gateway's connector makes, held to Stripe's
 * published OpenAPI description: every request it receives and every answer it gives is validated,
 * and what does not conform is kept in `violations` (and a request Stripe would refuse is refused).
 */

export interface FakeStripeOptions {
  port?: number;
  /** The secret key the fake takes (default `sk_test_51FakeGateway…`); anything else answers 401. */
  secretKey?: string;
  /** Whether the account may send raw card numbers (default true). */
  rawCardsAllowed?: boolean;
  /** The fake's clock, in milliseconds (object timestamps, the 24 h life of idempotency keys). */
  now?: () => number;
}

export interface RequestMatch {
  method?: string;
  /** The request path exactly, or a pattern. */
  path: string | RegExp;
}

export interface FakeFailure {
  status: number;
  type?: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  code?: string;
  declineCode?: string;
  /** Whether the answer is kept under the idempotency key (default: as Stripe does, all but 401, 409 and 429). */
  remember?: boolean;
}

export interface JournalEntry {
  method: string;
  path: string;
  /** The description's operation, when it has one. */
  operation?: string;
  idempotencyKey?: string;
  stripeVersion?: string;
  /** Form or query parameters, card number masked and CVC hidden. */
  params: Json;
  /** 0 while (or when) the fake never answers. */
  status: number;
  answer?: Json;
  replayed: boolean;
}

export interface Violation {
  method: string;
  path: string;
  direction: 'request' | 'answer' | 'event';
  problems: string[];
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  /** Every request received, in order. */
  readonly requests: readonly JournalEntry[];
  /** Every request or answer that did not conform to Stripe's description (tests assert none). */
  readonly violations: readonly Violation[];
  setRawCardsAllowed(allowed: boolean): void;
  /** The status refunds are created with from now on (default succeeded). */
  setRefundStatus(status: RefundStatus): void;
  /** A pending refund succeeds or fails (send a refund.updated event after). */
  settleRefund(refundId: string, status: 'succeeded' | 'failed'): void;
  /** The next request matching answers this error (nothing is done). */
  failNext(match: RequestMatch, failure: FakeFailure): void;
  /**
   * The next request matching is never answered. With `process: true` the fake does the work first
   * (keeping the answer under its idempotency key): the client times out on a call that succeeded.
   */
  hangNext(match: RequestMatch, options?: { process?: boolean }): void;
  /** The next request matching is answered after a delay, its idempotency key in flight meanwhile. */
  delayNext(match: RequestMatch, ms: number): void;
  /** A payment method as Stripe.js makes it on a merchant's page (unattached `pm_`). */
  clientPaymentMethod(number: string, expiry?: { month: number; year: number }): string;
  /** A card token as Stripe.js makes it (single-use `tok_`). */
  clientToken(number: string, expiry?: { month: number; year: number }): string;
  paymentIntents(): Json[];
  charges(): Json[];
  refunds(): Json[];
  customers(): Json[];
  paymentMethods(): Json[];
  /** An event (`payment_intent.succeeded`, `charge.refunded`, `refund.updated`…) about an object as it stands now. */
  event(type: string, objectId: string): Json;
  /**
   * The events Stripe would have sent so far, oldest first, each about its payment intent as it was
   * then: `payment_intent.requires_action`, `.amount_capturable_updated`, `.succeeded`,
   * `.payment_failed`, `.canceled`. Deliver one with `sendEvent`.
   */
  events(filter?: { type?: string; paymentIntent?: string }): Json[];
  /**
   * The challenge page of a payment intent waiting for 3-D Secure (its `next_action.redirect_to_url.url`),
   * with the buttons "Complete authentication" and "Fail authentication" for a browser to press.
   */
  challengeUrl(paymentIntentId: string): string;
  /**
   * Presses a button of the challenge page without a browser: the payment intent goes on as its
   * card does, or fails authentication. Answers where the page sends the browser (the return URL
   * with `payment_intent` and `payment_intent_client_secret`); once the challenge is over nothing
   * changes and the same address is answered. Throws for an intent that never had a challenge page.
   */
  completeChallenge(paymentIntentId: string, outcome: ChallengeOutcome): string;
  /** Delivers an event to a URL signed with a whsec_ secret (timestamp in seconds, default now). */
  sendEvent(url: string, event: Json, secret: string, options?: { timestamp?: number }): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

type Fault =
  | { match: RequestMatch; kind: 'fail'; failure: FakeFailure }
  | { match: RequestMatch; kind: 'hang'; process: boolean }
  | { match: RequestMatch; kind: 'delay'; ms: number };

interface KeptAnswer {
  fingerprint: string;
  at: number;
  answer?: Answer;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** `GET <url>/_fake/state`: the fake's objects, journal and violations, for tests in another process. */
export const STATE_PATH = '/_fake/state';
/** The objects the fake sends events about. */
const EVENT_OBJECTS = ['payment_intent', 'charge', 'refund'] as const;
const DEFAULT_KEY = 'sk_test_51FakeGateway0000000000000000';

const eventObject = (event: Json) => (event.data as { object: Json }).object;

const matches = (match: RequestMatch, method: string, path: string) =>
  (match.method === undefined || match.method.toUpperCase() === method) &&
  (typeof match.path === 'string' ? match.path === path : match.path.test(path));

/** Parameters for the journal: never a full card number or a CVC. */
function masked(params: Json): Json {
  return JSON.parse(
    JSON.stringify(params, (key, value: unknown) => {
      if (key === 'cvc') return '***';
      if (key === 'number' && typeof value === 'string')
        return `${value.slice(0, 6)}${'*'.repeat(Math.max(0, value.length - 10))}${value.slice(-4)}`;
      return value;
    }),
  ) as Json;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const contract = stripeContract();
  const operations = IMPLEMENTED.map((route) => {
    const [method, template] = route.split(' ') as [string, string];
    return { method, template };
  });
  contract.prepare(operations, ['event', ...EVENT_OBJECTS]);
  const now = options.now ?? Date.now;
  const secretKey = options.secretKey ?? DEFAULT_KEY;
  let origin = '';
  const challengeUrl = (intentId: string) => `${origin}${CHALLENGE_PATH}${intentId}`;
  const recorded: Json[] = [];
  const behaviour = new StripeBehaviour(now, {
    challengePage: challengeUrl,
    announce: (type, intent) => recorded.push(eventAbout(type, 'payment_intent', structuredClone(intent))),
  });
  behaviour.rawCardsAllowed = options.rawCardsAllowed ?? true;
  const journal: JournalEntry[] = [];
  const violations: Violation[] = [];
  const faults: Fault[] = [];
  const kept = new Map<string, KeptAnswer>();
  const sockets = new Set<Socket>();

  function takeFault(method: string, path: string): Fault | undefined {
    const index = faults.findIndex((f) => matches(f.match, method, path));
    return index < 0 ? undefined : faults.splice(index, 1)[0];
  }

  function send(res: ServerResponse, op: Operation | undefined, entry: JournalEntry, answer: Answer, replayed = false): void {
    if (op) {
      const problems = contract.checkAnswer(op, answer.status, answer.body);
      if (problems.length) violations.push({ method: entry.method, path: entry.path, direction: 'answer', problems });
    }
    Object.assign(entry, { status: answer.status, answer: answer.body, replayed });
    const body = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': newId('req'),
      'stripe-version': DESCRIPTION_API_VERSION,
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(body);
  }

  const error = (status: number, fields: Json): Answer => ({ status, body: { error: { message: 'Request failed', ...fields } } });

  function failureAnswer(failure: FakeFailure): Answer {
    const type = failure.type ?? (failure.status === 402 ? 'card_error' : failure.status >= 500 ? 'api_error' : 'invalid_request_error');
    return error(failure.status, {
      type,
      ...(failure.code ? { code: failure.code } : {}),
      ...(failure.declineCode ? { decline_code: failure.declineCode } : {}),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    if (path === STATE_PATH) {
      // Not Stripe's: what a test in another process (a Playwright test, a crash test) reads of the fake.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(state()));
      return;
    }
    const raw = await readBody(req);
    if (path.startsWith(CHALLENGE_PATH)) {
      serveChallengePage(behaviour, method, decodeURIComponent(path.slice(CHALLENGE_PATH.length)), raw, res);
      return;
    }
    const params = (method === 'POST' ? qs.parse(raw, { depth: 20, arrayLimit: 100 }) : qs.parse(url.search.slice(1))) as Json;
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const stripeVersion = req.headers['stripe-version'] as string | undefined;
    const entry: JournalEntry = { method, path, idempotencyKey, stripeVersion, params: masked(params), status: 0, replayed: false };
    journal.push(entry);

    const op = contract.operation(method, path);
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      send(res, op, entry, error(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' }));
      return;
    }
    if (!op) {
      violations.push({ method, path, direction: 'request', problems: ['no such operation in the description'] });
      send(res, op, entry, error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` }));
      return;
    }
    entry.operation = op.template;
    if (stripeVersion !== DESCRIPTION_API_VERSION) {
      violations.push({
        method,
        path,
        direction: 'request',
        problems: [`Stripe-Version ${stripeVersion ?? '(none)'}; the description is ${DESCRIPTION_API_VERSION}`],
      });
    }
    if (idempotencyKey !== undefined && idempotencyKey.length > 255) {
      send(res, op, entry, error(400, { type: 'invalid_request_error', message: 'Idempotency keys may be at most 255 characters.' }));
      return;
    }
    const problems = contract.checkRequest(op, params);
    entry.params = masked(params); // as Stripe reads them: "1250" is 1250
    if (problems.length) {
      // Stripe refuses a request its API does not describe before doing anything (nothing is kept under the key).
      violations.push({ method, path, direction: 'request', problems });
      send(res, op, entry, error(400, { type: 'invalid_request_error', code: 'parameter_invalid', message: problems.join('; ') }));
      return;
    }

    const fingerprint = `${method} ${path} ${canonical(params)}`;
    const keyed = method === 'POST' && idempotencyKey !== undefined;
    const previous = keyed ? kept.get(idempotencyKey) : undefined;
    if (previous && now() - previous.at < DAY_MS) {
      if (previous.fingerprint !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        send(res, op, entry, error(400, { type: 'idempotency_error', message }));
      } else if (!previous.answer) {
        const message = 'There is currently another in-progress request using this Stripe-Idempotency-Key.';
        send(res, op, entry, error(409, { type: 'invalid_request_error', code: 'idempotency_key_in_use', message }));
      } else send(res, op, entry, previous.answer, true);
      return;
    }

    const fault = takeFault(method, path);
    if (fault?.kind === 'hang' && !fault.process) return; // never answered, nothing done
    if (fault?.kind === 'fail') {
      const answer = failureAnswer(fault.failure);
      const remember = fault.failure.remember ?? ![401, 409, 429].includes(fault.failure.status);
      if (keyed && remember) kept.set(idempotencyKey, { fingerprint, at: now(), answer });
      send(res, op, entry, answer);
      return;
    }
    const slot: KeptAnswer = { fingerprint, at: now() };
    if (keyed) kept.set(idempotencyKey, slot);
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    const at = op.template.split('/').findIndex((part) => part.startsWith('{'));
    const id = at < 0 ? '' : decodeURIComponent(path.split('/')[at] ?? '');
    const route = `${op.method} ${op.template}`;
    if (!(IMPLEMENTED as readonly string[]).includes(route))
      violations.push({ method, path, direction: 'request', problems: ['not implemented by the fake'] });
    const answer = behaviour.handle(route, id, params);
    slot.answer = answer;
    if (fault?.kind === 'hang') {
      Object.assign(entry, { status: 0, answer: answer.body });
      return; // done, never answered: the client times out
    }
    send(res, op, entry, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      violations.push({ method: req.method ?? '', path: req.url ?? '', direction: 'answer', problems: [`fake failed: ${String(err)}`] });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'The fake failed' } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  const objectSchemas: Record<(typeof EVENT_OBJECTS)[number], Map<string, Json>> = {
    payment_intent: behaviour.intents,
    charge: behaviour.charges,
    refund: behaviour.refunds,
  };
  const copy = (objects: Iterable<Json>) => [...objects].map((o) => structuredClone(o));
  const state = () => ({
    paymentIntents: copy(behaviour.intents.values()),
    charges: copy(behaviour.charges.values()),
    refunds: copy(behaviour.refunds.values()),
    customers: copy(behaviour.customers.values()),
    paymentMethods: copy([...behaviour.paymentMethods.values()].map((pm) => pm.object)),
    events: recorded,
    requests: journal,
    violations,
  });
  /** An event about an object as it is now (a copy), checked against the description like every answer. */
  function eventAbout(type: string, schema: string, object: Json): Json {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: DESCRIPTION_API_VERSION,
      created: Math.floor(now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    const problems = [...contract.checkObject('event', event), ...contract.checkObject(schema, object)];
    if (problems.length) violations.push({ method: 'EVENT', path: type, direction: 'event', problems });
    return event;
  }
  const expiry = (e?: { month: number; year: number }) => e ?? { month: 12, year: new Date(now()).getUTCFullYear() + 3 };

  return {
    url: origin,
    secretKey,
    requests: journal,
    violations,
    setRawCardsAllowed: (allowed) => {
      behaviour.rawCardsAllowed = allowed;
    },
    setRefundStatus: (status) => {
      behaviour.refundStatus = status;
    },
    settleRefund: (id, status) => behaviour.settleRefund(id, status),
    failNext: (match, failure) => faults.push({ match, kind: 'fail', failure }),
    hangNext: (match, { process = false } = {}) => faults.push({ match, kind: 'hang', process }),
    delayNext: (match, ms) => faults.push({ match, kind: 'delay', ms }),
    clientPaymentMethod: (number, e) => behaviour.clientPaymentMethod(number, expiry(e).month, expiry(e).year),
    clientToken: (number, e) => behaviour.clientToken(number, expiry(e).month, expiry(e).year),
    paymentIntents: () => state().paymentIntents,
    charges: () => state().charges,
    refunds: () => state().refunds,
    customers: () => state().customers,
    paymentMethods: () => state().paymentMethods,
    event: (type, objectId) => {
      const [schema, objects] = Object.entries(objectSchemas).find(([, map]) => map.has(objectId)) ?? [];
      if (!schema || !objects) throw new Error(`The fake Stripe has no payment intent, charge or refund ${objectId}`);
      return eventAbout(type, schema, structuredClone(objects.get(objectId)!));
    },
    events: ({ type, paymentIntent } = {}) =>
      recorded
        .filter((e) => (type === undefined || e.type === type) && (paymentIntent === undefined || eventObject(e).id === paymentIntent))
        .map((e) => structuredClone(e)),
    challengeUrl,
    completeChallenge: (id, outcome) => {
      const back = behaviour.answerChallenge(id, outcome);
      if (back === undefined) throw new Error(`The fake Stripe has no challenge page for ${id}`);
      return back;
    },
    sendEvent: (url, event, secret, { timestamp = Math.floor(now() / 1000) } = {}) => {
      const payload = JSON.stringify(event, null, 2);
      return postEvent(url, payload, signStripePayload(payload, secret, timestamp));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
