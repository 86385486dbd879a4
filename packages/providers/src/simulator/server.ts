/**
 * Simulated acquirer: a small HTTP/JSON API over an in-memory ledger.
 *
 * Money is integer minor units as decimal strings. The POSTs on authorisations need an
 * `Idempotency-Key` header: repeating a key replays the first answer, and a key reused with a
 * different request is refused (code 94).
 *
 *   POST /v1/authorisations               {amount, currency, capture, card: {number, expiryMonth,
 *                                          expiryYear, cvc?, cardholder?}, reference?, descriptor?}
 *                                          → {id, status: "authorised" | "captured", amount}
 *   POST /v1/authorisations/{id}/capture  {amount} → {authorisationId, amount}
 *   POST /v1/authorisations/{id}/void     {}       → {authorisationId}
 *   POST /v1/authorisations/{id}/refunds  {amount} → {id, authorisationId, amount}
 *   POST /v1/reversals                    {idempotencyKey} → {reversed: boolean}
 *        Cancels what the authorise call with that key did (idempotent by that key, no header).
 *   GET  /v1/authorisations[?idempotencyKey=…] → {authorisations: [...]}
 *   GET  /v1/operations[?idempotencyKey=…]     → {operations: [...]}
 *
 * Failures answer HTTP 4xx/5xx with {error: {code, message}}; codes in response-codes.ts.
 * Optional header `x-simulator-latency: <minMs>-<maxMs>` delays the answer by a uniformly random
 * time in that range. The state change happens before the delay, as at a real acquirer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from './json.js';
import { Ledger, type AuthoriseInput, type Outcome, type SimulatorLedger } from './ledger.js';
import { RESPONSE_CODES } from './response-codes.js';

/** Long enough to outlast any sane client timeout. */
const HOLD_MS = 60_000;
const MAX_BODY_BYTES = 64 * 1024;

export interface Simulator {
  url: string;
  close(): Promise<void>;
  ledger: SimulatorLedger;
}

export async function startSimulator(opts: { port?: number; host?: string } = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  const ledger = new Ledger();

  const server = createServer((req, res) => {
    const controller = new AbortController();
    // 'close' comes once the answer is sent, the client gives up, or close() drops the connection;
    // the abort ends a held or delayed request so nothing outlives close().
    res.on('close', () => controller.abort());
    void handle(ledger, req, res, controller.signal);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ledger,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface Answer {
  status: number;
  body: unknown;
  hold?: boolean;
}

class FormatError extends Error {}

async function handle(ledger: Ledger, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  try {
    const delayMs = latency(req.headers['x-simulator-latency']);
    const answer = await route(ledger, req);
    await sleep(answer.hold ? HOLD_MS : delayMs, undefined, { signal });
    send(res, answer.status, answer.body);
  } catch (err) {
    if (signal.aborted) return; // client gave up or the simulator is closing
    if (err instanceof FormatError) send(res, 400, { error: { code: '30', message: `Format error: ${err.message}` } });
    else send(res, 500, { error: { code: '96', message: RESPONSE_CODES['96'].message } });
  }
}

async function route(ledger: Ledger, req: IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const path = url.pathname;

  if (req.method === 'GET') {
    const idempotencyKey = url.searchParams.get('idempotencyKey') ?? undefined;
    if (path === '/v1/authorisations') return { status: 200, body: { authorisations: ledger.authorisations({ idempotencyKey }) } };
    if (path === '/v1/operations') return { status: 200, body: { operations: ledger.operations({ idempotencyKey }) } };
  }

  if (req.method === 'POST') {
    const body = await readJson(req);
    if (path === '/v1/reversals') return answer(ledger.reverse(text(body.idempotencyKey, 'idempotencyKey')));
    if (path === '/v1/authorisations') return answer(ledger.authorise(idempotencyKey(req), parseAuthorise(body)));
    const [, id, action] = /^\/v1\/authorisations\/([^/]+)\/(capture|void|refunds)$/.exec(path) ?? [];
    if (id !== undefined) {
      const key = idempotencyKey(req);
      if (action === 'capture') return answer(ledger.capture(key, id, minorUnits(body.amount, 'amount')));
      if (action === 'void') return answer(ledger.void(key, id));
      return answer(ledger.refund(key, id, minorUnits(body.amount, 'amount')));
    }
  }

  return { status: 404, body: { error: { code: '30', message: 'No such route' } } };
}

function answer(outcome: Outcome): Answer {
  const { status, message } = RESPONSE_CODES[outcome.code];
  const body = outcome.code === '00' ? outcome.body : { error: { code: outcome.code, message } };
  return { status, body, hold: outcome.hold };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(stringify(body));
}

function latency(header: string | string[] | undefined): number {
  if (header === undefined) return 0;
  const [, min, max] = /^(\d{1,5})-(\d{1,5})$/.exec(String(header)) ?? [];
  if (min === undefined || max === undefined || Number(min) > Number(max)) {
    throw new FormatError('x-simulator-latency must be <minMs>-<maxMs>');
  }
  return Number(min) + Math.floor(Math.random() * (Number(max) - Number(min) + 1));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new FormatError('body too large');
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new FormatError('body is not JSON');
  }
  return object(json, 'body');
}

function idempotencyKey(req: IncomingMessage): string {
  return text(req.headers['idempotency-key'], 'Idempotency-Key header');
}

function parseAuthorise(body: Record<string, unknown>): AuthoriseInput {
  const card = object(body.card, 'card');
  return {
    amount: minorUnits(body.amount, 'amount'),
    currency: text(body.currency, 'currency', /^[A-Z]{3}$/),
    capture: boolean(body.capture, 'capture'),
    card: {
      number: text(card.number, 'card.number', /^[0-9]{12,19}$/),
      expiryMonth: integer(card.expiryMonth, 'card.expiryMonth', 1, 12),
      expiryYear: integer(card.expiryYear, 'card.expiryYear', 2000, 9999),
      cvc: optional(card.cvc, (v) => text(v, 'card.cvc', /^[0-9]{3,4}$/)),
      cardholder: optional(card.cardholder, (v) => text(v, 'card.cardholder')),
    },
    reference: optional(body.reference, (v) => text(v, 'reference')),
    descriptor: optional(body.descriptor, (v) => text(v, 'descriptor')),
  };
}

// Validation messages name the field, never its value: values may be card data.

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FormatError(`${name} must be an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, name: string, pattern = /^.{1,255}$/su): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new FormatError(`${name} is missing or malformed`);
  return value;
}

function minorUnits(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,17}$/.test(value)) {
    throw new FormatError(`${name} must be a positive integer of minor units, as a string`);
  }
  return BigInt(value);
}

function integer(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FormatError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function boolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new FormatError(`${name} must be a boolean`);
  return value;
}

function optional<T>(value: unknown, parse: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}
