import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AuthenticationResult,
  AuthenticationResultRequest,
  Authorisation,
  AuthoriseRequest,
  CardSummary,
  Modification,
  ProviderConnector,
  ProviderResult,
  StoredCard,
  StoredCardRef,
  ThreeDsOutcome,
} from '../connector.js';
import { authorisedAfterAuthentication, captureForSale } from '../after-authentication.js';
import { summaryOf } from '../connector.js';
import { checkCredentialsWith, HttpTimeoutError, readAnswer, requestJson } from '../http-json.js';
import { failure, unsupported } from '../provider-type.js';
import { approved, declineFailure, errorFailure, modificationFailure } from './codes.js';
import { toCheckoutUnits } from './currencies.js';
import { challengeOf, threeDsFields, threeDsOf } from './three-d-secure.js';
import {
  cardSummaryOf,
  isObject,
  paymentReference,
  paymentRequest,
  storedCardOf,
  storeRequest,
  storeSourceOf,
  subCallKey,
  text,
  type Json,
} from './transformers.js';

/**
 * Checkout.com's payments API over HTTP (docs/decisions.md says why not checkout-sdk-node). Every
 * call that creates or moves money carries a `Cko-Idempotency-Key` derived from the gateway's key,
 * one per sub-call, and the attempt's key as `reference`, so that a payment whose answer was lost
 * can be found (GET /payments?reference=) and reversed.
 *
 * Payments are authorised only; a sale is captured by a second call. Captures, voids and refunds
 * answer 202 Accepted with an action id, which is only accepted: with webhooks (a WebhookSecret)
 * they stay pending until the notification naming that action (payment_captured,
 * payment_capture_declined…), as Adyen's "received" do; without, the connector reads the payment's
 * actions (GET /payments/{id}/actions) and answers done, refused, or an unknown outcome the
 * gateway's confirming job asks again. A reversal is done only once the payment holds nothing.
 *
 * 3-D Secure: a payment the payer can authenticate is sent with `3ds.enabled` and the gateway's
 * return URL as success and failure URL; its 202 Pending with `_links.redirect` is a challenge.
 * `authenticationResult` asks Checkout.com for the payment (GET /payments/{id}), never the return's
 * query, and captures a sale once authorised.
 */
export interface CheckoutConnectorConfig {
  /** `https://api.sandbox.checkout.com`, `https://api.checkout.com`, or the operator's override. */
  baseUrl: string;
  /** Budget of each HTTP request; past it the outcome is unknown. */
  timeoutMs: number;
  secretKey: string;
  processingChannelId: string;
  /**
   * Checkout.com's webhooks reach the gateway verified (the provider has a WebhookSecret): an
   * accepted capture, void or refund is left pending its webhook. Otherwise (the default) it is
   * confirmed by reading the payment's actions, since no webhook could ever settle it.
   */
  webhooks?: boolean;
  /** The clock, in milliseconds (default Date.now): how old an attempt is when reversed. */
  now?: () => number;
  /** The waits between readings of an accepted action not made yet (default about 1.75 s in all). */
  confirmWaitsMs?: readonly number[];
}

type Result<T> = ProviderResult<T>;
type CallOptions = { body?: Json; idempotencyKey?: string; query?: Record<string, string> };

const TYPE = 'checkout';
/** The currency of the zero-amount verification that stores a card when the gateway names none. */
const DEFAULT_STORE_CURRENCY = 'EUR';
/**
 * How long after its request a payment may still be missing from GET /payments?reference=: an
 * attempt younger than this that finds nothing is asked again later (docs/providers/checkout.md,
 * "Never twice", says why 15 minutes).
 */
export const LISTING_DELAY_MS = 15 * 60_000;
/** The waits between readings of an accepted action or reversal not made yet: about 1.75 s in all. */
const CONFIRM_WAITS_MS = [250, 500, 1000];
/** A payment in one of these holds no money: nothing to reverse. */
const HOLDS_NOTHING: ReadonlySet<string> = new Set(['Declined', 'Voided', 'Refunded', 'Card Verified', 'Canceled', 'Expired']);
type Action = 'capture' | 'void' | 'refund';
const ACTION_PATHS: Readonly<Record<Action, string>> = { capture: 'captures', void: 'voids', refund: 'refunds' };

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const badAnswer = () => failure('processor_error', 'BAD_RESPONSE', 'Unreadable answer from Checkout.com', true);
/** An answer's body: an object as it came, a list (GET /payments/{id}/actions) under `items`. */
const bodyOf = (json: unknown): Json => (isObject(json) ? json : Array.isArray(json) ? { items: json } : {});

export function createCheckoutConnector(config: CheckoutConnectorConfig): ProviderConnector {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const { processingChannelId } = config;
  const now = config.now ?? Date.now;
  const confirmWaits = config.confirmWaitsMs ?? CONFIRM_WAITS_MS;

  /** One request with the secret key; its answer as it came. */
  function send(method: string, path: string, options: CallOptions = {}) {
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${config.secretKey}`, accept: 'application/json' };
    if (options.idempotencyKey !== undefined) headers['cko-idempotency-key'] = options.idempotencyKey;
    return requestJson(method, `${baseUrl}${path}${query}`, options.body, headers, config.timeoutMs);
  }

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Result<Json>> {
    let answer;
    try {
      answer = await send(method, path, options);
    } catch (err) {
      if (err instanceof HttpTimeoutError) {
        return failure('timeout', 'TIMEOUT', `No answer from Checkout.com within ${config.timeoutMs} ms; outcome unknown`, true);
      }
      if (err instanceof SyntaxError) return badAnswer();
      return failure('processor_error', 'NETWORK', 'Could not reach Checkout.com', true);
    }
    const json = bodyOf(answer.json);
    if (answer.status >= 200 && answer.status < 300) return ok(json);
    const codes = Array.isArray(json.error_codes) ? json.error_codes.filter((c): c is string => typeof c === 'string') : [];
    return { ok: false, failure: errorFailure(answer.status, codes) };
  }

  /** Reads an answer; an answer without what is needed is unreadable (outcome unknown). */
  const read = <T>(pending: Promise<Result<Json>>, reader: (answer: Json) => T) => readAnswer(pending, reader, badAnswer);

  const payment = (id: string) => `/payments/${encodeURIComponent(id)}`;
  const instrument = (id: string) => `/instruments/${encodeURIComponent(id)}`;

  /** Reads again, after each of the waits, until `decide` tells something (undefined if it never did). */
  async function readUntil<A, T>(ask: () => Promise<Result<A>>, decide: (answer: A) => T | undefined): Promise<Result<T | undefined>> {
    for (const wait of [0, ...confirmWaits]) {
      if (wait > 0) await sleep(wait);
      const answer = await ask();
      if (!answer.ok) return answer;
      const decided = decide(answer.value);
      if (decided !== undefined) return ok(decided);
    }
    return ok(undefined);
  }

  /** A capture, void or refund: Checkout.com answers 202 with the action's id, then makes it (settle). */
  async function act(id: string, kind: Action, idempotencyKey: string, amount?: number): Promise<Result<Modification>> {
    const accepted = await read(
      call('POST', `${payment(id)}/${ACTION_PATHS[kind]}`, {
        body: { reference: paymentReference(idempotencyKey), ...(amount !== undefined && { amount }) },
        idempotencyKey: subCallKey(idempotencyKey),
      }),
      (answer) => text(answer, 'action_id'),
    );
    return accepted.ok ? settle(id, kind, accepted.value) : accepted;
  }

  /** Whether Checkout.com's record of the payment shows the action approved or declined (undefined: not yet). */
  const actionOutcome = (id: string, actionId: string) =>
    readUntil(
      () =>
        read(call('GET', `${payment(id)}/actions`), (answer) => {
          if (!Array.isArray(answer.items)) throw new TypeError('actions are not a list');
          return answer.items.filter(isObject).find((action) => action.id === actionId);
        }),
      (action) => (typeof action?.approved === 'boolean' ? action.approved : undefined),
    );

  /**
   * An action Checkout.com accepted: pending its webhook when webhooks reach the gateway verified;
   * else done once the payment's actions show it approved, refused once declined, and until then
   * an unknown outcome (the gateway's confirming job calls again: the same key answers the same action).
   */
  async function settle(id: string, kind: Action, actionId: string): Promise<Result<Modification>> {
    if (config.webhooks) return ok({ pending: true, providerReference: actionId });
    const outcome = await actionOutcome(id, actionId);
    if (outcome.ok && outcome.value !== undefined) {
      return outcome.value ? ok({ providerReference: actionId }) : { ok: false, failure: modificationFailure(`payment_${kind}_declined`) };
    }
    return failure(
      'timeout',
      'ACTION_UNCONFIRMED',
      `Checkout.com accepted the ${kind} but has not made it yet; the gateway asks again`,
      true,
    );
  }

  /** The payment's status, as Checkout.com's record of it says now. */
  const statusOf = (id: string) => read(call('GET', payment(id)), (answer) => text(answer, 'status'));

  /**
   * Gives back what one payment holds (POST /payments/{id}/reversals: a void, or a refund of what
   * was captured), under a key of its own. Done only once the payment holds nothing: a reversal
   * answered 202 is only accepted, and the void or refund it starts can still be declined (Checkout.com,
   * "Reverse a payment", "Payment void declined"). Until then the answer is retryable, and the next
   * call reads the payment before asking again; one Checkout.com has not decided yet (waiting for its
   * payer) is left until it is.
   */
  async function release(id: string, attemptKey: string): Promise<Result<void>> {
    const before = await statusOf(id);
    if (!before.ok) return before;
    if (HOLDS_NOTHING.has(before.value)) return ok(undefined);
    if (before.value === 'Pending') {
      return failure(
        'timeout',
        'PAYMENT_PENDING',
        'Checkout.com has not decided the payment yet; the gateway reverses it once it has',
        true,
      );
    }
    const key = `${attemptKey}:reverse:${id}`;
    const reversal = await call('POST', `${payment(id)}/reversals`, {
      body: { reference: paymentReference(key) },
      idempotencyKey: subCallKey(key),
    });
    if (!reversal.ok) return reversal;
    const released = await readUntil(
      () => statusOf(id),
      (status) => (HOLDS_NOTHING.has(status) ? true : undefined),
    );
    if (released.ok && released.value) return ok(undefined);
    return failure(
      'timeout',
      'REVERSAL_PENDING',
      'Checkout.com accepted the reversal but has not made it yet; the gateway asks again',
      true,
    );
  }

  function amountIn(currency: string | undefined, amount: bigint): Result<number> {
    if (currency === undefined) return failure('invalid_request', 'NO_CURRENCY', 'Checkout.com needs the payment currency', false);
    const value = toCheckoutUnits(currency, amount);
    // JSON numbers are exact up to 2^53: beyond that the amount would change on the way.
    if (value === undefined || value > BigInt(Number.MAX_SAFE_INTEGER)) {
      return failure('invalid_amount', 'AMOUNT', `Checkout.com cannot express this amount in ${currency}`, false);
    }
    return ok(Number(value));
  }

  /** The card charged, as the gateway may keep it. */
  function chargedCard(req: AuthoriseRequest, answer: Json): CardSummary | undefined {
    if (req.source.type === 'card') return summaryOf(req.source.card);
    const length = Number(req.source.type === 'stored_card' ? req.source.providerData?.cardLength : undefined);
    return isObject(answer.source) ? cardSummaryOf(answer.source, Number.isInteger(length) && length > 0 ? length : undefined) : undefined;
  }

  async function authorise(req: AuthoriseRequest): Promise<Result<Authorisation>> {
    const { source } = req;
    if (source.type === 'network_token') return unsupported(TYPE, 'network tokens');
    if (source.type === 'wallet') return unsupported(TYPE, 'wallets');
    const amount = amountIn(req.currency, req.amount);
    if (!amount.ok) return amount;
    const body = { ...paymentRequest(req, amount.value, processingChannelId), ...threeDsFields(req.authentication) };
    // When it was sent, kept first: a reversal that finds nothing yet can tell whether it is too early to know.
    await req.keep?.({ sentAt: new Date(now()).toISOString() });
    const answer = await call('POST', '/payments', { body, idempotencyKey: subCallKey(req.idempotencyKey, 'payment') });
    if (!answer.ok) return answer;
    const { id, status } = answer.value;
    if (typeof id !== 'string' || typeof status !== 'string') return badAnswer();
    const card = chargedCard(req, answer.value);
    if (status === 'Pending') {
      // Waiting for the payer, or undecided: the gateway reverses it by id should nobody finish it.
      await req.keep?.({ paymentId: id });
      const challenge = req.authentication && challengeOf(answer.value);
      if (challenge) return ok({ providerChargeId: id, captured: false, amount: req.amount, ...(card && { card }), challenge });
      return failure('timeout', 'PENDING', 'Checkout.com has not decided the payment; the gateway reverses it', true);
    }
    const code = typeof answer.value.response_code === 'string' ? answer.value.response_code : undefined;
    if (answer.value.approved !== true || !approved(code)) return { ok: false, failure: declineFailure(code) };
    const authorisation: Authorisation = { providerChargeId: id, captured: false, amount: req.amount, ...(card && { card }) };
    if (!req.capture || req.amount === 0n) return ok(authorisation);
    // A sale: capture now. Should this call not be answered, the gateway reverses by the payment id.
    await req.keep?.({ paymentId: id });
    return captureSale(authorisation, req.idempotencyKey, amount.value);
  }

  /** A sale's capture (captureForSale): released, as a reversal of the attempt would, when refused for good. */
  function captureSale(authorisation: Authorisation, idempotencyKey: string, amount: number): Promise<Result<Authorisation>> {
    const id = authorisation.providerChargeId;
    return captureForSale(
      authorisation,
      () => act(id, 'capture', `${idempotencyKey}:capture`, amount),
      () => release(id, idempotencyKey),
    );
  }

  /** Where a payment that waited for its payer stands, from Checkout.com's own record of it. */
  async function authenticationResult(req: AuthenticationResultRequest): Promise<Result<AuthenticationResult>> {
    const answer = await call('GET', payment(req.providerChargeId));
    if (!answer.ok) {
      // Checkout.com cannot be asked now: a verified notification about the payment tells as well.
      if (!req.notified) return answer;
      const { success, failure: refused, threeDs } = req.notified;
      if (success) return afterAuthentication(req, threeDs);
      return ok({ state: 'failed', failure: refused ?? declineFailure(undefined), ...(threeDs && { threeDs }) });
    }
    const { status } = answer.value;
    const threeDs = threeDsOf(answer.value);
    if (status === 'Pending') return ok({ state: 'waiting' });
    if (answer.value.approved === true && (status === 'Authorized' || status === 'Card Verified' || status === 'Captured')) {
      return afterAuthentication(req, threeDs);
    }
    const code = typeof answer.value.response_code === 'string' ? answer.value.response_code : undefined;
    // A payment declined by its authentication carries no response code of the issuer's.
    const refused = code ?? (threeDs?.transStatus && !['Y', 'A'].includes(threeDs.transStatus) ? '20151' : undefined);
    return ok({ state: 'failed', failure: declineFailure(refused), ...(threeDs && { threeDs }) });
  }

  /** A payment that waited for the payer, authorised: captured now when it is a sale. */
  const afterAuthentication = (req: AuthenticationResultRequest, threeDs: ThreeDsOutcome | undefined) =>
    authorisedAfterAuthentication(req, threeDs, async (authorisation) => {
      const amount = amountIn(req.currency, req.amount);
      return amount.ok ? captureSale(authorisation, req.idempotencyKey, amount.value) : amount;
    });

  /** The ids of the payments Checkout.com lists under an attempt's reference. */
  const paymentsOf = (reference: string) =>
    read(call('GET', '/payments', { query: { reference } }), (answer) => {
      if (!Array.isArray(answer.data)) throw new TypeError('data is not a list');
      return answer.data.filter(isObject).map((p) => text(p, 'id'));
    });

  /** An attempt sent less than LISTING_DELAY_MS ago (unknown: not recent, as one from before this was kept). */
  const recent = (sentAt: string | undefined) => now() - Date.parse(sentAt ?? '') < LISTING_DELAY_MS;

  async function describe(ref: StoredCardRef): Promise<Result<StoredCard>> {
    const length = Number(ref.providerData?.cardLength);
    return read(call('GET', instrument(ref.providerToken)), (answer) => {
      const card = cardSummaryOf(answer, Number.isInteger(length) && length > 0 ? length : undefined);
      if (!card) throw new TypeError('instrument without a card');
      return { providerToken: ref.providerToken, ...(ref.providerData && { providerData: ref.providerData }), card };
    });
  }

  return {
    authorise,

    capture: async (req) => {
      const amount = amountIn(req.currency, req.amount);
      if (!amount.ok) return amount;
      const capture = await act(req.providerChargeId, 'capture', req.idempotencyKey, amount.value);
      return capture.ok ? ok({ ...capture.value, amount: req.amount }) : capture;
    },

    void: async (req) => {
      const voided = await act(req.providerChargeId, 'void', req.idempotencyKey);
      if (voided.ok || voided.failure.gatewayCode !== 'action_not_allowed') return voided;
      // A zero-amount card verification holds nothing, and Checkout.com voids none: done already.
      const verified = await read(call('GET', payment(req.providerChargeId)), (answer) => answer.status === 'Card Verified');
      return verified.ok && verified.value ? ok({}) : voided;
    },

    refund: async (req) => {
      const amount = amountIn(req.currency, req.amount);
      if (!amount.ok) return amount;
      const refund = await act(req.providerChargeId, 'refund', req.idempotencyKey, amount.value);
      return refund.ok ? ok({ ...refund.value, providerRefundId: refund.value.providerReference! }) : refund;
    },

    reverse: async (req) => {
      const known = req.providerChargeId ?? req.providerData?.paymentId;
      if (known) return release(known, req.idempotencyKey);
      // Without the payment's id, whatever payment carries the attempt's reference.
      const found = await paymentsOf(paymentReference(req.idempotencyKey));
      if (!found.ok) return found;
      // Checkout.com's search lags: none listed for a recent attempt does not mean none made.
      if (found.value.length === 0 && recent(req.providerData?.sentAt)) {
        return failure('timeout', 'NOT_LISTED_YET', 'Checkout.com lists no payment for the attempt yet; the gateway asks again', true);
      }
      for (const id of found.value) {
        const released = await release(id, req.idempotencyKey);
        if (!released.ok) return released;
      }
      return ok(undefined);
    },

    authenticationResult,

    checkCredentials: () =>
      checkCredentialsWith(() => send('GET', '/payments', { query: { reference: 'gateway-credential-check' } }), config.timeoutMs),

    storeCard: async (req) => {
      const body = storeRequest(storeSourceOf(req.source), req.idempotencyKey, req.currency ?? DEFAULT_STORE_CURRENCY, processingChannelId);
      const answer = await call('POST', '/payments', { body, idempotencyKey: subCallKey(req.idempotencyKey, 'store') });
      if (!answer.ok) {
        // Nothing is stored on an undecided verification; calling it unknown would only start a reversal.
        const refused = answer.failure;
        return { ok: false, failure: refused.category === 'timeout' ? { ...refused, category: 'processor_error' } : refused };
      }
      const code = typeof answer.value.response_code === 'string' ? answer.value.response_code : undefined;
      if (answer.value.approved !== true || !approved(code)) return { ok: false, failure: declineFailure(code) };
      return read(Promise.resolve(answer), (value) => {
        const returned = isObject(value.source) ? value.source : {};
        const card = req.source.type === 'card' ? summaryOf(req.source.card) : cardSummaryOf(returned);
        if (!card) throw new TypeError('no card in the answer');
        return storedCardOf(text(returned, 'id'), card, text(value, 'id'));
      });
    },

    describeStoredCard: describe,

    updateStoredCard: async (req) => {
      const body = {
        ...(req.expiryMonth !== undefined && { expiry_month: req.expiryMonth }),
        ...(req.expiryYear !== undefined && { expiry_year: req.expiryYear }),
        ...(req.cardholder !== undefined && { name: req.cardholder }),
      };
      const updated = await call('PATCH', instrument(req.providerToken), { body });
      return updated.ok ? describe(req) : updated;
    },

    deleteStoredCard: (req) => read(call('DELETE', instrument(req.providerToken)), () => undefined),

    createNetworkToken: async () => unsupported(TYPE, 'network tokens'),
    debit: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    paymentState: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    createPayToAgreement: async () => unsupported(TYPE, 'PayTo'),
  };
}
