import type {
  AuthenticationResult,
  AuthenticationResultRequest,
  AuthoriseRequest,
  Authorisation,
  ProviderConnector,
  ProviderFailure,
  ProviderNotificationOutcome,
  ProviderResult,
  StoredCard,
  ThreeDsOutcome,
} from '../connector.js';
import { authorisedAfterAuthentication, captureForSale } from '../after-authentication.js';
import { summaryOf } from '../connector.js';
import { checkCredentialsWith, HttpTimeoutError, readAnswer, requestJson } from '../http-json.js';
import { failure, unsupported } from '../provider-type.js';
import { awaitsShopper, detailsFailure, errorFailure, paymentFailure, refusalByReason, undecided } from './codes.js';
import { toAdyenUnits } from './currencies.js';
import {
  amountOf,
  isObject,
  paymentReference,
  paymentRequest,
  storedCardOf,
  storedIdOf,
  storeRequest,
  type AdyenAmount,
  type StoredPayment,
  subCallKey,
  text,
} from './transformers.js';
import { challengeOf, externalOutcome, threeDsFields, threeDsOf } from './three-d-secure.js';

/**
 * Adyen's Checkout API v71 over HTTP (the version its OpenAPI description pins, and the one the
 * contract tests validate against). Every call that creates or moves money carries an
 * `Idempotency-Key` derived from the gateway's key, one per sub-call.
 *
 * Authorisations are always manual-capture payments whose `reference` is the attempt's key; a sale
 * captures in a second call. Until that capture, a call whose outcome is unknown can be undone by
 * cancelling by reference (POST /cancels); once the payment's pspReference is known (kept through
 * `AuthoriseRequest.keep`), `reverse` cancels or refunds it (POST /payments/{psp}/reversals).
 * Captures, cancels and refunds answer "received": the outcome comes by notification.
 *
 * 3-D Secure: a payment the payer can authenticate (`AuthoriseRequest.authentication`) that Adyen
 * answers RedirectShopper is a challenge, kept under its pspReference; `authenticationResult` reads
 * its outcome with /payments/details once the payer is back (or from the AUTHORISATION
 * notification), and captures a sale then. Adyen has no call to read a payment's state, so without
 * either the answer is "waiting"; a payment nobody finishes is reversed (cancelled) by the gateway.
 */
export interface AdyenConnectorConfig {
  /** `https://checkout-test.adyen.com/v71`, the live prefix URL, or the operator's override. */
  baseUrl: string;
  /** Budget of each HTTP request; past it the outcome is unknown. */
  timeoutMs: number;
  apiKey: string;
  merchantAccount: string;
}

type Json = Record<string, unknown>;
type Result<T> = ProviderResult<T>;

const TYPE = 'adyen';

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const badAnswer = () => failure('processor_error', 'BAD_RESPONSE', 'Unreadable answer from Adyen', true);

export function createAdyenConnector(config: AdyenConnectorConfig): ProviderConnector {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const { merchantAccount } = config;

  /** One request to Adyen with the API key; its answer as it came. */
  function send(method: string, path: string, options: { body?: Json; idempotencyKey?: string; query?: Record<string, string> } = {}) {
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const headers: Record<string, string> = { 'x-api-key': config.apiKey, accept: 'application/json' };
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    return requestJson(method, `${baseUrl}${path}${query}`, options.body, headers, config.timeoutMs);
  }

  async function call(
    method: string,
    path: string,
    options: { body?: Json; idempotencyKey?: string; query?: Record<string, string> } = {},
  ): Promise<Result<Json>> {
    let answer;
    try {
      answer = await send(method, path, options);
    } catch (err) {
      if (err instanceof HttpTimeoutError) {
        return failure('timeout', 'TIMEOUT', `No answer from Adyen within ${config.timeoutMs} ms; outcome unknown`, true);
      }
      if (err instanceof SyntaxError) return badAnswer();
      return failure('processor_error', 'NETWORK', 'Could not reach Adyen', true);
    }
    const json = isObject(answer.json) ? answer.json : {};
    if (answer.status >= 200 && answer.status < 300) return ok(json);
    const errorCode = typeof json.errorCode === 'string' ? json.errorCode : undefined;
    return { ok: false, failure: errorFailure(answer.status, errorCode, answer.headers['transient-error'] === 'true') };
  }

  /** Reads an answer; an answer without what is needed is unreadable (outcome unknown). */
  const read = <T>(pending: Promise<Result<Json>>, reader: (answer: Json) => T) => readAnswer(pending, reader, badAnswer);

  const payment = (psp: string) => `/payments/${encodeURIComponent(psp)}`;

  /** A capture, cancel or refund of a payment: Adyen answers "received" with the modification's pspReference. */
  const modify = (psp: string, kind: 'captures' | 'cancels' | 'refunds' | 'reversals', idempotencyKey: string, amount?: AdyenAmount) =>
    read(
      call('POST', `${payment(psp)}/${kind}`, {
        body: { merchantAccount, reference: paymentReference(idempotencyKey), ...(amount && { amount }) },
        idempotencyKey: subCallKey(idempotencyKey),
      }),
      (answer) => ({ pending: true, providerReference: text(answer, 'pspReference') }),
    );

  function amountIn(currency: string | undefined, amount: bigint): Result<AdyenAmount> {
    if (currency === undefined) return failure('invalid_request', 'NO_CURRENCY', 'Adyen needs the payment currency with the amount', false);
    const value = toAdyenUnits(currency, amount);
    // JSON numbers are exact up to 2^53: beyond that the amount would change on the way.
    if (value === undefined || value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
      return failure('invalid_amount', 'AMOUNT', `Adyen cannot express this amount in ${currency}`, false);
    }
    return ok(amountOf(currency, value));
  }

  async function authorise(req: AuthoriseRequest): Promise<Result<Authorisation>> {
    const { source } = req;
    if (source.type === 'network_token') return unsupported(TYPE, 'network tokens');
    if (source.type === 'wallet') return unsupported(TYPE, 'wallets');
    const amount = amountIn(req.currency, req.amount);
    if (!amount.ok) return amount;
    let stored: StoredPayment | undefined;
    if (source.type === 'stored_card') {
      const shopperReference = source.providerData?.shopperReference;
      if (!shopperReference) return missingShopperReference();
      stored = { storedPaymentMethodId: source.providerToken, shopperReference, cvc: source.cvc };
    }
    const body = { ...paymentRequest(req, amount.value, merchantAccount, stored), ...threeDsFields(req) };
    const answer = await call('POST', '/payments', { body, idempotencyKey: subCallKey(req.idempotencyKey, 'payment') });
    if (!answer.ok) return answer;
    const resultCode = answer.value.resultCode;
    const psp = typeof answer.value.pspReference === 'string' ? answer.value.pspReference : undefined;
    if (typeof resultCode !== 'string' || (resultCode === 'Authorised' && !psp)) return badAnswer();
    const card = source.type === 'card' ? { card: summaryOf(source.card) } : {};
    if (resultCode === 'RedirectShopper' && req.authentication) {
      // Waiting for the payer: the gateway reverses it by pspReference should the payer never finish.
      if (psp) await req.keep?.({ pspReference: psp });
      const challenge = challengeOf(answer.value.action);
      if (!psp || !challenge) return badAnswer();
      return ok({ providerChargeId: psp, captured: false, amount: req.amount, ...card, challenge });
    }
    if (resultCode !== 'Authorised') {
      const refused = await refusal(answer.value, req.idempotencyKey);
      // An undecided payment is reversed by the gateway: by pspReference when Adyen gave one.
      if (psp && refused.category === 'timeout') await req.keep?.({ pspReference: psp });
      return { ok: false, failure: refused };
    }
    const threeDs = req.externalThreeDs ? externalOutcome(req.externalThreeDs, answer.value) : threeDsOf(answer.value, 'frictionless');
    const authorisation: Authorisation = {
      providerChargeId: psp!,
      captured: false,
      amount: req.amount,
      ...card,
      ...(threeDs && { threeDs }),
    };
    if (!req.capture || req.amount === 0n) return ok(authorisation);

    // A sale: capture now. Should this call not be answered, the gateway reverses by pspReference.
    await req.keep?.({ pspReference: psp! });
    return captureSale(authorisation, req.idempotencyKey, amount.value);
  }

  /** A sale's capture (captureForSale): released by a cancel when refused for good. */
  function captureSale(authorisation: Authorisation, idempotencyKey: string, amount: AdyenAmount): Promise<Result<Authorisation>> {
    const psp = authorisation.providerChargeId;
    return captureForSale(
      authorisation,
      () => modify(psp, 'captures', `${idempotencyKey}:capture`, amount),
      () => modify(psp, 'cancels', `${idempotencyKey}:cancel`),
    );
  }

  /**
   * The failure a /payments answer other than Authorised stands for, leaving nothing pending at
   * Adyen: a payment it holds for a redirect or a native authentication nobody will run (the payer
   * could not be asked) is cancelled.
   */
  async function refusal(answer: Json, idempotencyKey: string): Promise<ProviderFailure> {
    const psp = answer.pspReference;
    if (typeof psp === 'string' && awaitsShopper(String(answer.resultCode))) await modify(psp, 'cancels', `${idempotencyKey}:cancel`);
    return refusalOf(answer);
  }

  /** A payment that waited for the payer, authorised: captured now when it is a sale. */
  const afterAuthentication = (req: AuthenticationResultRequest, threeDs: ThreeDsOutcome | undefined) =>
    authorisedAfterAuthentication(req, threeDs, async (authorisation) => {
      const amount = amountIn(req.currency, req.amount);
      return amount.ok ? captureSale(authorisation, req.idempotencyKey, amount.value) : amount;
    });

  /** The outcome a verified AUTHORISATION notification reported. */
  async function notifiedOutcome(
    req: AuthenticationResultRequest,
    notified: ProviderNotificationOutcome,
  ): Promise<Result<AuthenticationResult>> {
    const { threeDs } = notified;
    if (notified.success) return afterAuthentication(req, threeDs);
    return ok({ state: 'failed', failure: notified.failure ?? refusalByReason(undefined), ...(threeDs && { threeDs }) });
  }

  /** The outcome /payments/details answered for the payer's return. */
  async function detailsOutcome(req: AuthenticationResultRequest, answer: Json): Promise<Result<AuthenticationResult>> {
    const { resultCode, pspReference } = answer;
    if (typeof resultCode !== 'string' || (resultCode === 'Authorised' && pspReference === undefined)) return badAnswer();
    // A return brought back from another payment (its redirectResult) must not settle this one.
    if (pspReference !== undefined && pspReference !== req.providerChargeId) {
      return failure('invalid_request', 'OTHER_PAYMENT', 'The payer’s return is for another Adyen payment', false);
    }
    const threeDs = threeDsOf(answer, 'challenge');
    if (resultCode === 'Authorised') return afterAuthentication(req, threeDs);
    if (undecided(resultCode)) return ok({ state: 'waiting' });
    const code = answer.refusalReasonCode;
    const failed = detailsFailure(resultCode, typeof code === 'string' ? code : undefined);
    return ok({ state: 'failed', failure: failed, ...(threeDs && { threeDs }) });
  }

  async function authenticationResult(req: AuthenticationResultRequest): Promise<Result<AuthenticationResult>> {
    const redirectResult = req.returned?.redirectResult;
    if (redirectResult) {
      const body = { details: { redirectResult } };
      const answer = await call('POST', '/payments/details', { body, idempotencyKey: subCallKey(req.idempotencyKey, 'details') });
      if (answer.ok) return detailsOutcome(req, answer.value);
      // Adyen reads a redirectResult once (error 704 after: an earlier reading settled it, or is
      // settling it); the notification tells the outcome as well.
      if (!req.notified && answer.failure.gatewayCode !== 'ERROR_704') return answer;
    }
    if (req.notified) return notifiedOutcome(req, req.notified);
    // Adyen's Checkout API has no call to read a payment's state: its notification will tell.
    return ok({ state: 'waiting' });
  }

  async function listStored(shopperReference: string): Promise<Result<Json[]>> {
    return read(call('GET', '/storedPaymentMethods', { query: { shopperReference, merchantAccount } }), (answer) => {
      const methods = answer.storedPaymentMethods ?? [];
      if (!Array.isArray(methods)) throw new TypeError('storedPaymentMethods is not a list');
      return methods.filter(isObject);
    });
  }

  async function describe(providerToken: string, shopperReference: string): Promise<Result<StoredCard>> {
    const listed = await listStored(shopperReference);
    if (!listed.ok) return listed;
    const entry = listed.value.find((m) => m.id === providerToken);
    if (!entry) return { ok: false, failure: errorFailure(422, '800', false) };
    const card = storedCardOf(entry);
    if (!card) return failure('processor_error', 'INCOMPLETE_CARD', 'Adyen did not describe the stored card fully', false);
    return ok({ providerToken, providerData: { shopperReference }, card });
  }

  return {
    authorise,

    capture: async (req) => {
      const amount = amountIn(req.currency, req.amount);
      if (!amount.ok) return amount;
      const capture = await modify(req.providerChargeId, 'captures', req.idempotencyKey, amount.value);
      return capture.ok ? ok({ ...capture.value, amount: req.amount }) : capture;
    },

    void: (req) => modify(req.providerChargeId, 'cancels', req.idempotencyKey),

    refund: async (req) => {
      const amount = amountIn(req.currency, req.amount);
      if (!amount.ok) return amount;
      const refund = await modify(req.providerChargeId, 'refunds', req.idempotencyKey, amount.value);
      return refund.ok ? ok({ ...refund.value, providerRefundId: refund.value.providerReference }) : refund;
    },

    reverse: async (req) => {
      const psp = req.providerChargeId ?? req.providerData?.pspReference;
      const key = `${req.idempotencyKey}:reverse`;
      if (psp) {
        const reversal = await modify(psp, 'reversals', key);
        return reversal.ok ? ok(undefined) : reversal;
      }
      // A technical cancel: whatever payment carries the attempt's key as its reference, if any.
      const body = { merchantAccount, paymentReference: paymentReference(req.idempotencyKey), reference: paymentReference(key) };
      return read(call('POST', '/cancels', { body, idempotencyKey: subCallKey(key) }), () => undefined);
    },

    checkCredentials: () => checkCredentialsWith(() => send('POST', '/paymentMethods', { body: { merchantAccount } }), config.timeoutMs),

    storeCard: async (req) => {
      if (req.source.type === 'single_use_token') return unsupported(TYPE, 'single-use tokens');
      const { card } = req.source;
      const shopperReference = req.ownerReference ?? paymentReference(req.idempotencyKey);
      const body = storeRequest(card, req.currency ?? 'EUR', req.idempotencyKey, shopperReference, merchantAccount);
      const answer = await call('POST', '/payments', { body, idempotencyKey: subCallKey(req.idempotencyKey, 'store') });
      if (!answer.ok) return answer;
      const resultCode = answer.value.resultCode;
      if (typeof resultCode !== 'string') return badAnswer();
      if (resultCode !== 'Authorised') {
        const refused = await refusal(answer.value, req.idempotencyKey);
        // Nothing is stored on an undecided verification; calling it unknown would only start a reversal.
        return { ok: false, failure: refused.category === 'timeout' ? { ...refused, category: 'processor_error' } : refused };
      }
      let providerToken = storedIdOf(answer.value);
      if (!providerToken) {
        // Older answers carry no id: the shopper's stored card with these digits and expiry.
        const listed = await listStored(shopperReference);
        if (!listed.ok) return listed;
        const summary = summaryOf(card);
        providerToken = listed.value
          .map((m) => ({ id: m.id, card: storedCardOf(m) }))
          .find(
            (m) =>
              m.card?.last4 === summary.last4 && m.card.expiryMonth === summary.expiryMonth && m.card.expiryYear === summary.expiryYear,
          )?.id as string | undefined;
        if (!providerToken) return failure('processor_error', 'NO_TOKEN', 'Adyen stored the card but did not say under which id', false);
      }
      return ok({ providerToken, providerData: { shopperReference }, card: summaryOf(card) });
    },

    describeStoredCard: async (req) => {
      const shopperReference = req.providerData?.shopperReference;
      return shopperReference ? describe(req.providerToken, shopperReference) : missingShopperReference();
    },

    updateStoredCard: async () => unsupported(TYPE, 'updating stored cards'),

    deleteStoredCard: async (req) => {
      const shopperReference = req.providerData?.shopperReference;
      if (!shopperReference) return missingShopperReference();
      const path = `/storedPaymentMethods/${encodeURIComponent(req.providerToken)}`;
      return read(call('DELETE', path, { query: { shopperReference, merchantAccount } }), () => undefined);
    },

    createNetworkToken: async () => unsupported(TYPE, 'network tokens'),
    debit: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    paymentState: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    createPayToAgreement: async () => unsupported(TYPE, 'PayTo'),
    authenticationResult,
  };
}

/** The failure a /payments answer other than Authorised stands for. */
function refusalOf(answer: Json): ProviderFailure {
  const code = answer.refusalReasonCode;
  return paymentFailure(String(answer.resultCode), typeof code === 'string' ? code : undefined);
}

function missingShopperReference(): { ok: false; failure: ProviderFailure } {
  return failure(
    'invalid_request',
    'NO_SHOPPER_REFERENCE',
    'An Adyen stored payment method id needs its shopperReference (providerTokenData)',
    false,
  );
}
