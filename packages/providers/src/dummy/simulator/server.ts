/**
 * Simulated acquirer: a small HTTP/JSON API over a ledger kept in memory, and in a state file when
 * one is given (journal.ts).
 *
 * Money is integer minor units as decimal strings. Bodies are the connector's requests
 * (connector.ts) without the idempotency key. Calls marked (key) need an `Idempotency-Key` header:
 * repeating a key replays the first answer, and a key reused with a different request is refused
 * (code 94). Keys are remembered for 24 hours.
 *
 * Card payments
 *   POST   /v1/authorisations (key)   {amount ("0": a card verification), currency, capture, recurring?,
 *                                      source, reference?, descriptor?}
 *                                      → {id, status: "authorised" | "captured", amount,
 *                                         card: {iin, last4, length, expiryMonth, expiryYear, cardholder?}}
 *          source: {type: "card", card: {number, expiryMonth, expiryYear, cvc?, cardholder?}}
 *                | {type: "stored_card", providerToken, cvc?} | {type: "network_token", networkTokenId}
 *                | {type: "wallet", wallet: "apple_pay", paymentData}   (test format: wallet.ts)
 *          With authentication {returnUrl, merchantName} (the payer can be sent to the issuer), a 3-D
 *          Secure card answers {id, status: "authenticating", amount, card, challenge: {id}} and waits
 *          for its challenge; without it, such a card is refused with 1A (authentication required).
 *          externalThreeDs {eci, authenticationValue, dsTransID, threeDsVersion, transStatus?}: an
 *          authentication run elsewhere (N or R refused with 1A). Approvals carry threeDs when authenticated.
 *   GET    /v1/authorisations/{id}   → {id, status, amount, captured, threeDs?, error?: {code, message}}
 *   POST   /v1/reversals              {idempotencyKey} → {reversed: boolean}
 *          Cancels what the authorise call with that key did (idempotent by that key, no header).
 * 3-D Secure challenges (the issuer's page, which the gateway serves: issuer-page.ts)
 *   GET    /v1/challenges/{id}        → {id, state, merchantName, returnUrl, amount, currency, cardLast4}
 *   POST   /v1/challenges/{id}        {action: "complete" | "fail" | "cancel"} → {id, state, returnUrl}
 *          Once: a later answer changes nothing and answers the same.
 * Any payment: an authorisation or a debit
 *   POST   /v1/payments/{id}/capture (key)  {amount} → {paymentId, amount}       authorisations only
 *   POST   /v1/payments/{id}/void (key)     {}       → {paymentId}               authorisations only
 *   POST   /v1/payments/{id}/refunds (key)  {amount} → {id, paymentId, amount}   once captured or settled
 * Card vault (never keeps a card number or CVC)
 *   POST   /v1/single-use-tokens      {card} → {token: "sut_…", expiresAt}   what a merchant's page calls
 *   POST   /v1/cards (key)            {source: {type: "card", card} | {type: "single_use_token", token}}
 *                                      → {token: "tok_…", card}
 *   GET    /v1/cards/{token}          → {token, card}
 *   PATCH  /v1/cards/{token}          {expiryMonth?, expiryYear?, cardholder?} → {token, card}
 *   DELETE /v1/cards/{token}          → {}
 *   POST   /v1/cards/{token}/network-tokens (key)  {} → {id: "ntok_…", schemeTokenId, status: "ACTIVE"}
 * Direct debits
 *   POST   /v1/payto-agreements (key) {payerName, payId, payIdType, description, maximumAmount, currency}
 *                                      → {id: "pta_…", status: "ACTIVE"}
 *   POST   /v1/debits (key)           {amount, currency, account, reference?} → {id: "dd_…", state}
 *          account: {type: "bank_account", bankCode, accountNumber, accountName} | {type: "payto", agreementId}
 *   GET    /v1/debits/{id}            → {id, state: "pending" | "settled" | "failed", error?: {code, message}}
 * Inspection
 *   GET    /v1/authorisations[?idempotencyKey=…]  → {authorisations: [...]}
 *   GET    /v1/debits[?idempotencyKey=…]          → {debits: [...]}
 *   GET    /v1/operations[?idempotencyKey=…]      → {operations: [...]}
 *
 * Failures answer HTTP 4xx/5xx with {error: {code, message}}; codes in response-codes.ts.
 * Simulation headers: `x-simulator-latency: <minMs>-<maxMs>` delays the answer by a uniformly
 * random time in that range (the state change happens before the delay, as at a real acquirer);
 * `x-simulator-settlement-delay: <ms>` on POST /v1/debits is how long the debit stays pending
 * (default 0). Times (expiry, settlement) follow the simulator's clock.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FormatError, minorUnits, object, text } from './fields.js';
import { Journal } from './journal.js';
import { stringify } from './json.js';
import { Ledger, type SimulatorLedger } from './ledger.js';
import type { Outcome } from './operations.js';
import { readAgreement, readAuthorise, readCard, readCardChanges, readChallengeAction, readDebit, readStoreCard } from './requests.js';
import { errorBody, RESPONSE_CODES } from './response-codes.js';

/** Long enough to outlast any sane client timeout. */
const HOLD_MS = 60_000;
const MAX_BODY_BYTES = 64 * 1024;

export interface Simulator {
  url: string;
  close(): Promise<void>;
  ledger: SimulatorLedger;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /**
   * Keeps the ledger (stored cards included) in this file across restarts; absent, in memory only.
   * One simulator process per file.
   */
  stateFile?: string;
  /** The simulator's time: card expiry, token expiry, debit settlement. */
  clock?: { now(): Date };
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  const { clock } = opts;
  const journal = new Journal(opts.stateFile);
  const ledger = new Ledger(journal, clock ? () => clock.now().getTime() : Date.now);

  const server = createServer((req, res) => {
    const controller = new AbortController();
    // 'close' comes once the answer is sent, the client gives up, or close() drops the connection;
    // the abort ends a held or delayed request so nothing outlives close().
    res.on('close', () => controller.abort());
    void handle(ledger, req, res, controller.signal);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, resolve);
    });
  } catch (error) {
    journal.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ledger,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          journal.close();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}

interface Answer {
  status: number;
  body: unknown;
  hold?: boolean;
}

interface Call {
  ledger: Ledger;
  req: IncomingMessage;
  body: Record<string, unknown>;
  query: URLSearchParams;
  /** The path's `{id}` or `{token}`. */
  id: string;
}

const ID = '([^/]+)';

const ROUTES: ReadonlyArray<readonly [method: string, path: RegExp, handle: (call: Call) => Outcome]> = [
  ['POST', path('/v1/authorisations'), (c) => c.ledger.authorise(key(c), readAuthorise(c.body))],
  ['POST', path('/v1/reversals'), (c) => c.ledger.reverse(text(c.body.idempotencyKey, 'idempotencyKey'))],
  ['GET', path(`/v1/authorisations/${ID}`), (c) => c.ledger.authorisation(c.id)],
  ['GET', path(`/v1/challenges/${ID}`), (c) => c.ledger.challenge(c.id)],
  ['POST', path(`/v1/challenges/${ID}`), (c) => c.ledger.answerChallenge(c.id, readChallengeAction(c.body))],
  ['POST', path(`/v1/payments/${ID}/capture`), (c) => c.ledger.capture(key(c), c.id, minorUnits(c.body.amount, 'amount'))],
  ['POST', path(`/v1/payments/${ID}/void`), (c) => c.ledger.void(key(c), c.id)],
  ['POST', path(`/v1/payments/${ID}/refunds`), (c) => c.ledger.refund(key(c), c.id, minorUnits(c.body.amount, 'amount'))],
  ['POST', path('/v1/single-use-tokens'), (c) => c.ledger.vault.issueSingleUseToken(readCard(c.body))],
  ['POST', path('/v1/cards'), (c) => c.ledger.vault.store(key(c), readStoreCard(c.body))],
  ['GET', path(`/v1/cards/${ID}`), (c) => c.ledger.vault.describe(c.id)],
  ['PATCH', path(`/v1/cards/${ID}`), (c) => c.ledger.vault.update(c.id, readCardChanges(c.body))],
  ['DELETE', path(`/v1/cards/${ID}`), (c) => c.ledger.vault.delete(c.id)],
  ['POST', path(`/v1/cards/${ID}/network-tokens`), (c) => c.ledger.vault.createNetworkToken(key(c), c.id)],
  ['POST', path('/v1/payto-agreements'), (c) => c.ledger.createAgreement(key(c), readAgreement(c.body))],
  ['POST', path('/v1/debits'), (c) => c.ledger.debit(key(c), readDebit(c.body), settlementDelay(c.req))],
  ['GET', path(`/v1/debits/${ID}`), (c) => c.ledger.debitState(c.id)],
  ['GET', path('/v1/authorisations'), (c) => ({ code: '00', body: { authorisations: c.ledger.authorisations(filter(c)) } })],
  ['GET', path('/v1/debits'), (c) => ({ code: '00', body: { debits: c.ledger.debits(filter(c)) } })],
  ['GET', path('/v1/operations'), (c) => ({ code: '00', body: { operations: c.ledger.operations(filter(c)) } })],
];

function path(pattern: string): RegExp {
  return new RegExp(`^${pattern}$`);
}

async function handle(ledger: Ledger, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  try {
    const delayMs = latency(req.headers['x-simulator-latency']);
    const answer = await route(ledger, req);
    await sleep(answer.hold ? HOLD_MS : delayMs, undefined, { signal });
    send(res, answer.status, answer.body);
  } catch (err) {
    if (signal.aborted) return; // client gave up or the simulator is closing
    if (err instanceof FormatError) send(res, 400, { error: { code: '30', message: `Format error: ${err.message}` } });
    else send(res, 500, errorBody('96'));
  }
}

async function route(ledger: Ledger, req: IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  for (const [method, pattern, run] of ROUTES) {
    const match = req.method === method ? pattern.exec(url.pathname) : null;
    if (!match) continue;
    const outcome = run({ ledger, req, body: await readJson(req), query: url.searchParams, id: decode(match[1] ?? '') });
    const { status } = RESPONSE_CODES[outcome.code];
    return { status, body: outcome.code === '00' ? outcome.body : errorBody(outcome.code), hold: outcome.hold };
  }
  return { status: 404, body: { error: { code: '30', message: 'No such route' } } };
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

function settlementDelay(req: IncomingMessage): number {
  const header = req.headers['x-simulator-settlement-delay'];
  if (header === undefined) return 0;
  return Number(text(header, 'x-simulator-settlement-delay header', /^\d{1,10}$/));
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

function key(call: Call): string {
  return text(call.req.headers['idempotency-key'], 'Idempotency-Key header');
}

function filter(call: Call): { idempotencyKey?: string } {
  return { idempotencyKey: call.query.get('idempotencyKey') ?? undefined };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new FormatError('the path is malformed');
  }
}
