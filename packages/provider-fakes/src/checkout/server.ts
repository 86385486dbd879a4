import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { z } from 'zod';
import {
  captureRequest,
  idempotencyKey,
  instrumentUpdate,
  paymentRequest,
  problemsOf,
  refundRequest,
  reversalRequest,
  voidRequest,
} from './schema.js';
import { CHECKOUT_TEST_CARDS, type ChallengeOutcome } from './test-cards.js';

/**
 * A stateful fake of Checkout.com's payments API, for tests: what Checkout.com documents (bearer
 * secret key, Cko-Idempotency-Key, the sandbox's test cards and response codes, captures, voids,
 * refunds and reversals answered 202 and told later by signed webhooks and the payment's actions,
 * payments found by reference (listed only after a lag, when asked to), instruments, 3-D Secure
 * through a redirect, expired when the payer never finishes), with every request body checked against
 * the Zod schema written from Checkout.com's reference (schema.ts; violations are recorded, never
 * thrown). The issuer's challenge page is served on the same address, under `/fake/3ds/`.
 */
export interface FakeCheckoutOptions {
  port?: number;
  secretKey: string;
  /** Signs the webhooks (Cko-Signature). */
  webhookSecret: string;
  /** Where webhooks go (the gateway's POST /provider/{providerId}/notification); none when absent. */
  notificationUrl?: string;
  /** How long after its answer an action's webhook is sent (default 5 ms). */
  notificationDelayMs?: number;
  /** Whether the account may send card numbers (default true); otherwise a card source answers 422 card_details_not_allowed. */
  rawCardsAllowed?: boolean;
  /** How long a new payment is missing from GET /payments?reference= (Checkout.com's search lags; default 0). */
  searchLagMs?: number;
  /** How long a payment waits for its payer's 3-D Secure before Checkout.com declines it 20152 (default 15 minutes). */
  challengeExpiryMs?: number;
}

/** One entry of GET /payments/{id}/actions: an action Checkout.com has processed. */
export interface FakeCheckoutAction {
  id: string;
  type: 'Authorization' | 'Card Verification' | 'Capture' | 'Void' | 'Refund';
  amount: number;
  approved: boolean;
  responseCode: string;
  reference?: string;
}

export interface FakeCheckoutPayment {
  id: string;
  reference?: string;
  amount: number;
  currency: string;
  status:
    | 'Authorized'
    | 'Card Verified'
    | 'Declined'
    | 'Pending'
    | 'Voided'
    | 'Captured'
    | 'Partially Captured'
    | 'Refunded'
    | 'Partially Refunded';
  approved: boolean;
  responseCode?: string;
  captured: number;
  refunded: number;
  voided: boolean;
  merchantInitiated: boolean;
  cvvSent: boolean;
  sourceId: string;
  threeDs?: { challenged: boolean; authenticationResponse?: 'Y' | 'N' };
  /** Where the payer's browser goes back after 3-D Secure. */
  successUrl?: string;
  failureUrl?: string;
  /** When it was made (Date.now()). */
  createdAt: number;
  /** What GET /payments/{id}/actions lists, latest first. */
  actions: FakeCheckoutAction[];
}

export interface FakeInstrument {
  id: string;
  number: string;
  scheme: string;
  expiryMonth: number;
  expiryYear: number;
  name?: string;
  deleted: boolean;
}

export interface CheckoutJournalEntry {
  method: string;
  path: string;
  /** The described route (`/payments/{id}/captures`). */
  route: string;
  idempotencyKey?: string;
  authenticated: boolean;
  /** Absent while the request hangs. */
  status?: number;
}

export interface CheckoutViolation {
  method: string;
  path: string;
  problems: string[];
}

export interface CheckoutDelivery {
  type: string;
  status: number;
}

export type CheckoutFault =
  /** No answer ever; with `processed`, Checkout.com acts on the request first (the answer is lost). */
  { kind: 'hang'; processed: boolean } | { kind: 'error'; status: number; errorCodes?: string[] };

export interface FakeCheckout {
  url: string;
  requests: CheckoutJournalEntry[];
  violations: CheckoutViolation[];
  deliveries: CheckoutDelivery[];
  payments(): FakeCheckoutPayment[];
  payment(id: string): FakeCheckoutPayment | undefined;
  instruments(): FakeInstrument[];
  /** Keeps a card as if a payer had stored it before: a token a merchant brings. Answers its id. */
  addInstrument(number?: string): string;
  setNotificationUrl(url: string | undefined): void;
  setRawCardsAllowed(allowed: boolean): void;
  /** The next matching request (method and route, e.g. POST `/payments/{id}/captures`) meets the fault. */
  injectFault(fault: CheckoutFault, match: { method: string; route: string }): void;
  /** The next action of this kind is accepted, then declined by webhook. */
  failNextAction(kind: 'capture' | 'void' | 'refund'): void;
  /** Payments younger than this are missing from GET /payments?reference= (0: listed at once). */
  setSearchLag(ms: number): void;
  /**
   * While held, captures, voids, refunds and reversals are answered 202 but not processed: the
   * payment is unchanged, its actions do not list them, no webhook goes. Released, the held ones
   * are processed in order (as Checkout.com would, later).
   */
  holdActions(hold: boolean): void;
  /** Checkout.com gives up on a payment waiting for its payer: declined 20152. */
  expireChallenge(paymentId: string): void;
  /** Finishes a payment's challenge as the payer would on the page; answers where the browser goes. */
  completeChallenge(paymentId: string, outcome: ChallengeOutcome): string;
  /** Sends a webhook signed with `secret` (the fake's unless given), as Checkout.com does; answers the receiver's status. */
  sendWebhook(type: string, data: Record<string, unknown>, secret?: string): Promise<number>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body?: Json | Json[];
}
type Action = 'capture' | 'void' | 'refund';

const ROUTES: readonly [string, RegExp][] = [
  ['/payments', /^\/payments$/],
  ['/payments/{id}', /^\/payments\/[^/]+$/],
  ['/payments/{id}/actions', /^\/payments\/[^/]+\/actions$/],
  ['/payments/{id}/captures', /^\/payments\/[^/]+\/captures$/],
  ['/payments/{id}/voids', /^\/payments\/[^/]+\/voids$/],
  ['/payments/{id}/refunds', /^\/payments\/[^/]+\/refunds$/],
  ['/payments/{id}/reversals', /^\/payments\/[^/]+\/reversals$/],
  ['/instruments/{id}', /^\/instruments\/[^/]+$/],
];
const SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'POST /payments': paymentRequest,
  'POST /payments/{id}/captures': captureRequest,
  'POST /payments/{id}/voids': voidRequest,
  'POST /payments/{id}/refunds': refundRequest,
  'POST /payments/{id}/reversals': reversalRequest,
  'PATCH /instruments/{id}': instrumentUpdate,
};
export const CHALLENGE_PATH = '/fake/3ds/';

const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex').slice(0, 26)}`;
const error = (status: number, ...codes: string[]): Answer => ({
  status,
  body: { request_id: newId('req'), error_type: status === 422 ? 'request_invalid' : 'processing_error', error_codes: codes },
});

export async function startFakeCheckout(options: FakeCheckoutOptions): Promise<FakeCheckout> {
  const requests: CheckoutJournalEntry[] = [];
  const violations: CheckoutViolation[] = [];
  const deliveries: CheckoutDelivery[] = [];
  const payments = new Map<string, FakeCheckoutPayment & { sessionId?: string }>();
  const instruments = new Map<string, FakeInstrument>();
  const idempotent = new Map<string, { digest: string; answer: Answer }>();
  const faults: { fault: CheckoutFault; method: string; route: string }[] = [];
  const failing = new Set<Action>();
  const held: Array<() => void> = [];
  let holding = false;
  let notificationUrl = options.notificationUrl;
  let rawCardsAllowed = options.rawCardsAllowed ?? true;
  let searchLagMs = options.searchLagMs ?? 0;
  const challengeExpiryMs = options.challengeExpiryMs ?? 15 * 60_000;
  const delay = options.notificationDelayMs ?? 5;
  const sockets = new Set<Socket>();
  let url = '';

  async function sendWebhook(type: string, data: Json, secret = options.webhookSecret): Promise<number> {
    if (!notificationUrl) return 0;
    const body = JSON.stringify({ id: newId('evt'), type, version: '1.0.33', created_on: new Date().toISOString(), data });
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    try {
      const res = await fetch(notificationUrl, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'cko-signature': signature },
      });
      await res.arrayBuffer();
      deliveries.push({ type, status: res.status });
      return res.status;
    } catch {
      deliveries.push({ type, status: 0 });
      return 0;
    }
  }
  const notifyLater = (type: string, data: Json) => void setTimeout(() => void sendWebhook(type, data), delay);

  function instrumentJson(i: FakeInstrument): Json {
    return {
      id: i.id,
      type: 'card',
      expiry_month: i.expiryMonth,
      expiry_year: i.expiryYear,
      ...(i.name && { name: i.name }),
      scheme: i.scheme,
      last4: i.number.slice(-4),
      bin: i.number.slice(0, 6),
      fingerprint: createHash('sha256').update(i.number).digest('hex').slice(0, 40),
    };
  }

  function paymentJson(p: FakeCheckoutPayment): Json {
    const instrument = instruments.get(p.sourceId);
    return {
      id: p.id,
      action_id: newId('act'),
      amount: p.amount,
      currency: p.currency,
      approved: p.approved,
      status: p.status,
      ...(p.responseCode && { response_code: p.responseCode, response_summary: 'summary' }),
      ...(p.reference && { reference: p.reference }),
      ...(instrument && { source: instrumentJson(instrument) }),
      ...(p.threeDs && {
        '3ds': {
          challenged: p.threeDs.challenged,
          ...(p.threeDs.authenticationResponse && { authentication_response: p.threeDs.authenticationResponse }),
          ...(p.threeDs.authenticationResponse === 'Y' && { eci: '05', version: '2.2.0' }),
        },
      }),
      processed_on: new Date().toISOString(),
      _links: { self: { href: `${url}/payments/${p.id}` } },
    };
  }

  function actionJson(a: FakeCheckoutAction): Json {
    return {
      id: a.id,
      type: a.type,
      processed_on: new Date().toISOString(),
      amount: a.amount,
      approved: a.approved,
      response_code: a.responseCode,
      response_summary: a.approved ? 'Approved' : 'Declined',
      ...(a.reference && { reference: a.reference }),
    };
  }

  function createPayment(body: z.infer<typeof paymentRequest>): Answer {
    const amount = body.amount ?? 0;
    let instrument: FakeInstrument | undefined;
    let cvvSent = false;
    if (body.source.type === 'card') {
      if (!rawCardsAllowed) return error(422, 'card_details_not_allowed');
      const { number, expiry_month, expiry_year, name, cvv } = body.source;
      const card = CHECKOUT_TEST_CARDS.find((c) => c.number === number);
      if (!card) return error(422, 'card_number_invalid');
      instrument = {
        id: newId('src'),
        number,
        scheme: card.scheme,
        expiryMonth: expiry_month,
        expiryYear: expiry_year,
        ...(name && { name }),
        deleted: false,
      };
      instruments.set(instrument.id, instrument);
      cvvSent = cvv !== undefined;
    } else if (body.source.type === 'id') {
      instrument = instruments.get(body.source.id);
      if (!instrument || instrument.deleted) return error(422, 'source_id_invalid');
      cvvSent = body.source.cvv !== undefined;
    } else {
      return error(422, 'token_invalid');
    }
    const card = CHECKOUT_TEST_CARDS.find((c) => c.number === instrument!.number)!;
    const base = {
      id: newId('pay'),
      ...(body.reference && { reference: body.reference }),
      amount,
      currency: body.currency,
      captured: 0,
      refunded: 0,
      voided: false,
      merchantInitiated: body.merchant_initiated === true,
      cvvSent,
      sourceId: instrument.id,
      createdAt: Date.now(),
      actions: [],
    };
    const threeDsEnabled = body['3ds']?.enabled === true;
    if (card.threeDSecure && threeDsEnabled && !base.merchantInitiated) {
      const sessionId = newId('sid');
      const pending = {
        ...base,
        status: 'Pending' as const,
        approved: false,
        threeDs: { challenged: true },
        sessionId,
        successUrl: body.success_url,
        failureUrl: body.failure_url,
      };
      payments.set(pending.id, pending);
      return {
        status: 202,
        body: {
          id: pending.id,
          status: 'Pending',
          reference: body.reference,
          _links: { self: { href: `${url}/payments/${pending.id}` }, redirect: { href: `${url}${CHALLENGE_PATH}${sessionId}` } },
        },
      };
    }
    const responseCode = card.threeDSecure && !threeDsEnabled && !base.merchantInitiated ? '20154' : card.responseCode;
    const approved = responseCode === '10000';
    const status = !approved ? 'Declined' : amount === 0 ? 'Card Verified' : body.capture === true ? 'Captured' : 'Authorized';
    const made: FakeCheckoutPayment = { ...base, status, approved, responseCode, captured: status === 'Captured' ? amount : 0 };
    record(made, { type: amount === 0 ? 'Card Verification' : 'Authorization', amount, approved, responseCode });
    payments.set(made.id, made);
    return { status: 201, body: paymentJson(made) };
  }

  /** Lists an action Checkout.com processed on the payment (GET /payments/{id}/actions); answers its id. */
  function record(payment: FakeCheckoutPayment, action: Omit<FakeCheckoutAction, 'id'>, id = newId('act')): string {
    payment.actions.unshift({ id, ...action });
    return id;
  }

  /** Declines a payment whose payer never finished 3-D Secure, as Checkout.com does when its session ends. */
  function expire(payment: FakeCheckoutPayment) {
    if (payment.status !== 'Pending') return;
    Object.assign(payment, { status: 'Declined', approved: false, responseCode: '20152' });
    record(payment, { type: 'Authorization', amount: payment.amount, approved: false, responseCode: '20152' });
    notifyLater('payment_declined', { id: payment.id, amount: payment.amount, currency: payment.currency, response_code: '20152' });
  }

  /** A payment as Checkout.com holds it now: one waiting for its payer too long is declined first. */
  function current(payment: FakeCheckoutPayment | undefined) {
    if (payment?.status === 'Pending' && Date.now() - payment.createdAt >= challengeExpiryMs) expire(payment);
    return payment;
  }

  function act(payment: FakeCheckoutPayment, kind: Action | 'reversal', body: { amount?: number; reference?: string }): Answer {
    // A card verification holds nothing: there is nothing to capture, void or refund.
    const authorised = payment.approved && !payment.voided && payment.status !== 'Pending' && payment.status !== 'Card Verified';
    const amount =
      body.amount ?? (kind === 'capture' ? payment.amount - payment.captured : kind === 'refund' ? payment.captured - payment.refunded : 0);
    if (kind === 'reversal') {
      // Already reversed: 204, nothing more. Otherwise a refund of what was captured, or a void.
      const reversed = payment.voided || (payment.captured > 0 && payment.refunded >= payment.captured);
      if (payment.approved && reversed) return { status: 204 };
      if (payment.captured > payment.refunded) return act(payment, 'refund', { ...body, amount: payment.captured - payment.refunded });
      return act(payment, 'void', body);
    }
    if (!authorised) return error(403, 'action_not_allowed');
    if (kind === 'capture' && (payment.captured > 0 || amount > payment.amount)) return error(422, 'capture_value_greater_than_authorized');
    if (kind === 'void' && payment.captured > 0) return error(403, 'action_not_allowed');
    if (kind === 'refund' && amount > payment.captured - payment.refunded) return error(422, 'refund_amount_exceeds_balance');
    const actionId = newId('act');
    const process = () => {
      const fails = failing.delete(kind);
      if (!fails) {
        if (kind === 'capture') {
          payment.captured = amount;
          payment.status = amount < payment.amount ? 'Partially Captured' : 'Captured';
        } else if (kind === 'void') {
          payment.voided = true;
          payment.status = 'Voided';
        } else {
          payment.refunded += amount;
          payment.status = payment.refunded < payment.captured ? 'Partially Refunded' : 'Refunded';
        }
      }
      const responseCode = fails ? '20005' : '10000';
      const type = ({ capture: 'Capture', void: 'Void', refund: 'Refund' } as const)[kind];
      const told = kind === 'void' ? payment.amount : amount;
      record(
        payment,
        { type, amount: told, approved: !fails, responseCode, ...(body.reference && { reference: body.reference }) },
        actionId,
      );
      const event = { capture: 'payment_captured', void: 'payment_voided', refund: 'payment_refunded' }[kind];
      const declined = { capture: 'payment_capture_declined', void: 'payment_void_declined', refund: 'payment_refund_declined' }[kind];
      notifyLater(fails ? declined : event, {
        id: payment.id,
        action_id: actionId,
        ...(body.reference && { reference: body.reference }),
        amount: told,
        currency: payment.currency,
        response_code: responseCode,
      });
    };
    if (holding) held.push(process);
    else process();
    return { status: 202, body: { action_id: actionId, ...(body.reference && { reference: body.reference }) } };
  }

  function handle(method: string, path: string, route: string, query: URLSearchParams, body: Json | undefined): Answer {
    const id = decodeURIComponent(path.split('/')[2] ?? '');
    const payment = current(payments.get(id));
    switch (`${method} ${route}`) {
      case 'POST /payments':
        return createPayment(body as z.infer<typeof paymentRequest>);
      case 'GET /payments': {
        const reference = query.get('reference');
        if (!reference) return error(422, 'reference_required');
        const listed = [...payments.values()].filter((p) => p.reference === reference && Date.now() - p.createdAt >= searchLagMs);
        const data = listed.map((p) => paymentJson(current(p)!));
        return { status: 200, body: { limit: 10, skip: 0, total_count: data.length, data } };
      }
      case 'GET /payments/{id}':
        return payment ? { status: 200, body: paymentJson(payment) } : { status: 404 };
      case 'GET /payments/{id}/actions':
        return payment ? { status: 200, body: payment.actions.map(actionJson) } : { status: 404 };
      case 'POST /payments/{id}/captures':
      case 'POST /payments/{id}/voids':
      case 'POST /payments/{id}/refunds':
      case 'POST /payments/{id}/reversals': {
        if (!payment) return { status: 404 };
        const kind = ({ captures: 'capture', voids: 'void', refunds: 'refund', reversals: 'reversal' } as const)[
          path.split('/')[3] as 'captures'
        ];
        return act(payment, kind, (body ?? {}) as { amount?: number; reference?: string });
      }
      case 'GET /instruments/{id}':
      case 'PATCH /instruments/{id}':
      case 'DELETE /instruments/{id}': {
        const instrument = instruments.get(id);
        if (!instrument || instrument.deleted) return { status: 404 };
        if (method === 'DELETE') {
          instrument.deleted = true;
          return { status: 204 };
        }
        if (method === 'PATCH') {
          const changes = body as z.infer<typeof instrumentUpdate>;
          if (changes.expiry_month !== undefined) instrument.expiryMonth = changes.expiry_month;
          if (changes.expiry_year !== undefined) instrument.expiryYear = changes.expiry_year;
          if (changes.name !== undefined) instrument.name = changes.name;
          return { status: 200, body: { type: 'card', fingerprint: String(instrumentJson(instrument).fingerprint) } };
        }
        return { status: 200, body: instrumentJson(instrument) };
      }
      default:
        return { status: 404 };
    }
  }

  function completeChallenge(paymentId: string, outcome: ChallengeOutcome): string {
    const payment = payments.get(paymentId);
    if (!payment || payment.status !== 'Pending') throw new Error(`no payment ${paymentId} waits for its challenge`);
    const passed = outcome === 'pass';
    payment.threeDs = { challenged: true, authenticationResponse: passed ? 'Y' : 'N' };
    payment.approved = passed;
    payment.status = passed ? 'Authorized' : 'Declined';
    payment.responseCode = passed ? '10000' : '20151';
    record(payment, { type: 'Authorization', amount: payment.amount, approved: passed, responseCode: payment.responseCode });
    notifyLater(passed ? 'payment_approved' : 'payment_declined', {
      id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      response_code: payment.responseCode,
      ...(payment.reference && { reference: payment.reference }),
    });
    const back = new URL((passed ? payment.successUrl : payment.failureUrl) ?? 'about:blank');
    back.searchParams.set('cko-session-id', payment.sessionId!);
    return back.toString();
  }

  function challengePage(res: ServerResponse, sessionId: string, outcome?: string) {
    const payment = [...payments.values()].find((p) => p.sessionId === sessionId && p.status === 'Pending');
    if (!payment) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No authentication waits under this session');
      return;
    }
    if (outcome === 'pass' || outcome === 'fail') {
      res.writeHead(302, { location: completeChallenge(payment.id, outcome) }).end();
      return;
    }
    const amount = `${payment.currency} ${payment.amount}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><title>Checkout.com 3-D Secure (fake)</title></head>
<body><main><h1>Authenticate the payment</h1><p>${amount}</p>
<form method="post"><button name="outcome" value="pass">Authenticate</button> <button name="outcome" value="fail">Fail authentication</button></form></main></body></html>`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const raw = Buffer.concat(chunks).toString('utf8');
      if (target.pathname.startsWith(CHALLENGE_PATH)) {
        challengePage(
          res,
          target.pathname.slice(CHALLENGE_PATH.length),
          method === 'POST' ? (new URLSearchParams(raw).get('outcome') ?? undefined) : undefined,
        );
        return;
      }
      const path = target.pathname;
      const route = ROUTES.find(([, pattern]) => pattern.test(path))?.[0] ?? path;
      const key = req.headers['cko-idempotency-key'] as string | undefined;
      const entry: CheckoutJournalEntry = {
        method,
        path,
        route,
        ...(key !== undefined && { idempotencyKey: key }),
        authenticated: req.headers.authorization === `Bearer ${options.secretKey}`,
      };
      requests.push(entry);
      const reply = (answer: Answer) => {
        entry.status = answer.status;
        res
          .writeHead(answer.status, answer.body ? { 'content-type': 'application/json' } : {})
          .end(answer.body ? JSON.stringify(answer.body) : undefined);
      };
      if (!entry.authenticated) return reply({ status: 401 });
      let body: Json | undefined;
      try {
        body = raw === '' ? undefined : (JSON.parse(raw) as Json);
      } catch {
        return reply(error(422, 'request_body_malformed'));
      }
      const schema = SCHEMAS[`${method} ${route}`];
      const moves = method === 'POST';
      const problems = [
        ...(schema ? problemsOf(schema, body ?? {}) : []),
        ...(moves ? problemsOf(idempotencyKey, key).map((p) => `Cko-Idempotency-Key ${p}`) : []),
      ];
      if (problems.length > 0) {
        violations.push({ method, path, problems });
        return reply(error(422, 'request_invalid'));
      }
      const faultAt = faults.findIndex((f) => f.method === method && f.route === route);
      const fault = faultAt >= 0 ? faults.splice(faultAt, 1)[0]!.fault : undefined;
      if (fault?.kind === 'error') return reply(error(fault.status, ...(fault.errorCodes ?? [])));
      // A request lost before Checkout.com saw it: nothing happens, nothing answers.
      if (fault?.kind === 'hang' && !fault.processed) return;
      const answer = (() => {
        if (!moves || key === undefined) return handle(method, path, route, target.searchParams, body);
        const digest = createHash('sha256').update(`${method} ${path} ${raw}`).digest('hex');
        const earlier = idempotent.get(key);
        if (earlier) return earlier.digest === digest ? earlier.answer : error(409, 'idempotency_key_conflict');
        const made = handle(method, path, route, target.searchParams, body);
        if (made.status < 500) idempotent.set(key, { digest, answer: made });
        return made;
      })();
      // Checkout.com acted on the request, and its answer is lost.
      if (fault?.kind === 'hang') return;
      reply(answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    violations,
    deliveries,
    payments: () => [...payments.values()],
    payment: (id) => payments.get(id),
    instruments: () => [...instruments.values()],
    addInstrument: (number = '4242424242424242') => {
      const card = CHECKOUT_TEST_CARDS.find((c) => c.number === number)!;
      const instrument: FakeInstrument = {
        id: newId('src'),
        number,
        scheme: card.scheme,
        expiryMonth: 12,
        expiryYear: 2030,
        name: 'Brought Payer',
        deleted: false,
      };
      instruments.set(instrument.id, instrument);
      return instrument.id;
    },
    setNotificationUrl: (next) => void (notificationUrl = next),
    setRawCardsAllowed: (allowed) => void (rawCardsAllowed = allowed),
    injectFault: (fault, match) => void faults.push({ fault, ...match }),
    failNextAction: (kind) => void failing.add(kind),
    setSearchLag: (ms) => void (searchLagMs = ms),
    holdActions: (hold) => {
      holding = hold;
      if (!hold) for (const process of held.splice(0)) process();
    },
    expireChallenge: (paymentId) => expire(payments.get(paymentId)!),
    completeChallenge,
    sendWebhook,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
