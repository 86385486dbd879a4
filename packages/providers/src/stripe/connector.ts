import Stripe from 'stripe';
import {
  credentialVerdict,
  type AuthenticationResult,
  type AuthenticationResultRequest,
  type AuthoriseRequest,
  type Authorisation,
  type CardSummary,
  type CredentialCheck,
  type ProviderConnector,
  type ProviderResult,
  type ReverseRequest,
  type StoredCard,
  type StoredCardRef,
} from '../connector.js';
import { unsupported, type ConnectorOptions } from '../provider-type.js';
import { codeForError, failureFor, type StripeCode } from './codes.js';
import { fromStripeAmount, toStripeAmount } from './currencies.js';
import { threeDsOfIntent } from './three-d-secure.js';
import {
  cardSummary,
  intentFromKept,
  keptIntent,
  paymentIntentParams,
  paymentMethodParams,
  storedCard,
  STRIPE_API_VERSION,
  subKey,
  attemptMetadata,
  type IntentAuthentication,
  type IntentSource,
} from './transformers.js';

/**
 * The Stripe connector: PaymentIntents with card PaymentMethods, through Stripe's official Node
 * library pointed at the provider's endpoint, its own retries off (the gateway retries with the same
 * keys), and the API version pinned to the description its fake is held to.
 */

/**
 * Stripe keeps an idempotency key's answer for 24 hours; after that the same key is a new request.
 * An attempt older than this is not replayed but looked for by the attempt key in its metadata.
 */
const REPLAY_WINDOW_MS = 23 * 3_600_000;

type Failed = { ok: false; failure: ReturnType<typeof failureFor> };
const failed = (code: StripeCode): Failed => ({ ok: false, failure: failureFor(code) });

/** A Stripe error as the connector reads it, or undefined for anything else. */
function stripeError(error: unknown): Stripe.errors.StripeError | undefined {
  return error instanceof Stripe.errors.StripeError ? error : undefined;
}

function codeFor(error: unknown): StripeCode {
  const known = stripeError(error);
  if (!known) return 'BAD_RESPONSE';
  if (known instanceof Stripe.errors.StripeConnectionError) {
    return (known as { detail?: { code?: string } }).detail?.code === 'ETIMEDOUT' ? 'TIMEOUT' : 'NETWORK';
  }
  return codeForError(known);
}

/** Runs one Stripe call; an error answer becomes a failure from the code table (`refine` may name a more specific row). */
async function call<T>(
  run: () => Promise<T>,
  refine?: (error: Stripe.errors.StripeError) => StripeCode | undefined,
): Promise<ProviderResult<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const known = stripeError(error);
    return failed((known && refine?.(known)) ?? codeFor(error));
  }
}

/** Stripe refuses raw card numbers for accounts not enabled for them with an invalid_request_error that has no code. */
const rawCardRefusal = (error: Stripe.errors.StripeError): StripeCode | undefined =>
  error.rawType === 'invalid_request_error' && !error.code && !error.param && error.statusCode !== 401 ? 'RAW_CARD_DATA' : undefined;

export function createStripeConnector(options: ConnectorOptions): ProviderConnector {
  const endpoint = new URL(options.baseUrl);
  if (endpoint.pathname !== '/' || endpoint.search) throw new RangeError('The Stripe endpoint must be an origin (scheme, host, port)');
  const secure = endpoint.protocol === 'https:';
  const stripe = new Stripe(options.parameters.SecretKey ?? '', {
    apiVersion: STRIPE_API_VERSION,
    host: endpoint.hostname,
    port: endpoint.port || (secure ? 443 : 80),
    protocol: secure ? 'https' : 'http',
    maxNetworkRetries: 0,
    timeout: options.timeoutMs,
    telemetry: false,
  });
  const keyed = (key: string, part: string) => ({ idempotencyKey: subKey(key, part) });
  const now = options.now ?? Date.now;

  /**
   * The payment intent an attempt made, as the gateway's authorisation: authorised or paid (with how
   * the payer was authenticated), or waiting for the payer's challenge when the request allowed a
   * redirect. Any other challenge is cancelled: nothing may stay waiting for what cannot happen.
   */
  async function authorisation(intent: Stripe.PaymentIntent, key: string, card?: CardSummary, redirectable = false) {
    const amount = fromStripeAmount(intent.currency.toUpperCase(), intent.amount);
    if (amount === undefined) return failed('BAD_RESPONSE');
    const value: Authorisation = { providerChargeId: intent.id, captured: intent.status === 'succeeded', amount };
    if (card) value.card = card;
    if (intent.status === 'requires_action') {
      const url = intent.next_action?.type === 'redirect_to_url' ? intent.next_action.redirect_to_url?.url : undefined;
      if (redirectable && url) return { ok: true as const, value: { ...value, challenge: { redirect: { url, method: 'GET' as const } } } };
      await call(() => stripe.paymentIntents.cancel(intent.id, {}, keyed(key, 'cancel')));
      return failed('REQUIRES_ACTION');
    }
    if (intent.status !== 'requires_capture' && intent.status !== 'succeeded') return failed('BAD_RESPONSE');
    const threeDs = threeDsOfIntent(intent);
    return { ok: true as const, value: threeDs ? { ...value, threeDs } : value };
  }

  /** Where a payment intent that waited for its payer's challenge stands, from its status. */
  function authenticationState(intent: Stripe.PaymentIntent, amount: bigint): ProviderResult<AuthenticationResult> {
    const threeDs = threeDsOfIntent(intent);
    const outcome = (value: AuthenticationResult) => ({ ok: true as const, value });
    const failure = (code: StripeCode) => outcome({ state: 'failed', failure: failureFor(code), ...(threeDs && { threeDs }) });
    switch (intent.status) {
      case 'succeeded':
      case 'requires_capture': {
        const authorisation: Authorisation = { providerChargeId: intent.id, captured: intent.status === 'succeeded', amount };
        return outcome({ state: 'authorised', authorisation: threeDs ? { ...authorisation, threeDs } : authorisation });
      }
      case 'requires_action':
      case 'processing':
        return outcome({ state: 'waiting' });
      case 'requires_payment_method': {
        // The authentication failed (payment_intent_authentication_failure), or the issuer declined after it.
        const error = intent.last_payment_error;
        return failure(codeForError({ rawType: error?.type, code: error?.code, decline_code: error?.decline_code }));
      }
      case 'canceled':
        return failure('CANCELED');
      default:
        return failed('BAD_RESPONSE');
    }
  }

  /**
   * Asks Stripe where a payment that waited for 3-D Secure stands: the payment intent, never the
   * return's query, which only has to name the same intent. An intent of another attempt, amount or
   * currency is not this charge's (`OTHER_PAYMENT`).
   */
  async function authenticationResult(req: AuthenticationResultRequest): Promise<ProviderResult<AuthenticationResult>> {
    const named = req.returned?.payment_intent;
    if (named !== undefined && named !== req.providerChargeId) return failed('OTHER_PAYMENT');
    const retrieved = await call(() => stripe.paymentIntents.retrieve(req.providerChargeId, { expand: ['latest_charge'] }));
    if (!retrieved.ok) return retrieved;
    const intent = retrieved.value;
    const currency = intent.currency.toUpperCase();
    const amount = fromStripeAmount(currency, intent.amount);
    const ours = intent.metadata.attempt === attemptMetadata(req.idempotencyKey) && currency === req.currency.toUpperCase();
    if (!ours || amount !== req.amount) return failed('OTHER_PAYMENT');
    return authenticationState(intent, amount);
  }

  /** What pays, made ready at Stripe: a payment method for card details, a CVC token for a stored card's CVC. */
  async function paymentSource(req: AuthoriseRequest): Promise<ProviderResult<{ source: IntentSource; card?: CardSummary }>> {
    const { source, idempotencyKey: key } = req;
    if (source.type === 'card') {
      const pm = await call(() => stripe.paymentMethods.create(paymentMethodParams(source.card), keyed(key, 'pm')), rawCardRefusal);
      return pm.ok ? { ok: true, value: { source: { paymentMethod: pm.value.id }, card: cardSummary(pm.value, source.card.number) } } : pm;
    }
    if (source.type !== 'stored_card') return unsupported('stripe', source.type === 'wallet' ? 'wallet payments' : 'network tokens');
    const intentSource: IntentSource = { paymentMethod: source.providerToken, customer: source.providerData?.customer };
    if (source.cvc) {
      const token = await call(() => stripe.tokens.create({ cvc_update: { cvc: source.cvc! } }, keyed(key, 'cvc')), rawCardRefusal);
      if (!token.ok) return token;
      intentSource.cvcToken = token.value.id;
    }
    return { ok: true, value: { source: intentSource } };
  }

  /** A charge's currency, from the request or else from Stripe. */
  async function currencyOf(providerChargeId: string, currency?: string): Promise<ProviderResult<string>> {
    if (currency) return { ok: true, value: currency };
    const intent = await call(() => stripe.paymentIntents.retrieve(providerChargeId));
    return intent.ok ? { ok: true, value: intent.value.currency.toUpperCase() } : intent;
  }

  async function stripeAmount(providerChargeId: string, amount: bigint, currency?: string): Promise<ProviderResult<bigint>> {
    const known = await currencyOf(providerChargeId, currency);
    if (!known.ok) return known;
    const converted = toStripeAmount(known.value, amount);
    return converted === undefined ? failed('AMOUNT') : { ok: true, value: converted };
  }

  /** Undoes what a payment intent holds: cancels an authorisation, refunds a payment. */
  async function undo(intent: Stripe.PaymentIntent, key: string): Promise<ProviderResult<void>> {
    const done = { ok: true as const, value: undefined };
    switch (intent.status) {
      case 'succeeded': {
        const refunded = await call(() => stripe.refunds.create({ payment_intent: intent.id }, keyed(key, 'reverse-refund')));
        return refunded.ok ? done : refunded;
      }
      case 'requires_capture':
      case 'requires_action':
      case 'requires_confirmation': {
        try {
          await stripe.paymentIntents.cancel(intent.id, {}, keyed(key, 'reverse-cancel'));
          return done;
        } catch (error) {
          // Moved on meanwhile (cancelled by the authorise call itself, paid by the payer's challenge,
          // or a replay answered the intent as it first was): undo what it holds now.
          const current = stripeError(error)?.payment_intent;
          return current && current.status !== intent.status ? undo(current, key) : failed(codeFor(error));
        }
      }
      case 'canceled':
      case 'requires_payment_method':
        return done;
      default:
        return failed('HTTP_409');
    }
  }

  /** A stored card as Stripe knows it: a card payment method attached to the expected customer. */
  async function describeStoredCard(req: StoredCardRef): Promise<ProviderResult<StoredCard>> {
    const pm = await call(() => stripe.paymentMethods.retrieve(req.providerToken));
    if (!pm.ok) return pm;
    const customer = typeof pm.value.customer === 'string' ? pm.value.customer : pm.value.customer?.id;
    const expected = req.providerData?.customer;
    if (!customer || (expected !== undefined && customer !== expected) || !pm.value.card) return failed('NOT_REUSABLE');
    return { ok: true, value: storedCard(pm.value, customer) };
  }

  /**
   * Undoes every payment intent an attempt made, found by the attempt key the connector puts in
   * its metadata (Stripe's search lags writes by up to a minute: only for attempts long past). None
   * found means the attempt made no payment.
   */
  async function undoFound(key: string): Promise<ProviderResult<void>> {
    const query = `metadata['attempt']:'${attemptMetadata(key).replace(/['\\]/g, '\\$&')}'`;
    const found = await call(() => stripe.paymentIntents.search({ query, limit: 100 }));
    if (!found.ok) return found;
    for (const intent of found.value.data) {
      const undone = await undo(intent, key);
      if (!undone.ok) return undone;
    }
    return { ok: true, value: undefined };
  }

  async function reverse(req: ReverseRequest): Promise<ProviderResult<void>> {
    if (req.providerChargeId) {
      const intent = await call(() => stripe.paymentIntents.retrieve(req.providerChargeId!));
      return intent.ok ? undo(intent.value, req.idempotencyKey) : intent;
    }
    const intent = intentFromKept(req.providerData);
    // Nothing kept: the call never reached the payment intent, so nothing holds money.
    if (!intent) return { ok: true, value: undefined };
    // Past the key's life (or of unknown age) a replay would be a new payment: look for the first one.
    if (!(now() - Date.parse(req.providerData?.keptAt ?? '') < REPLAY_WINDOW_MS)) return undoFound(req.idempotencyKey);
    const { amount, currency, capture } = req;
    if (amount === undefined || currency === undefined || capture === undefined) return failed('REVERSE_PARAMETERS');
    const converted = toStripeAmount(currency, amount);
    if (converted === undefined) return { ok: true, value: undefined };
    // The same request under the same key: Stripe answers what the first one did, or does it now.
    const params = paymentIntentParams({ ...req, currency, capture }, converted, intent.source, intent.authentication);
    const replayed = await call(
      () => stripe.paymentIntents.create(params, keyed(req.idempotencyKey, 'pi')),
      (error) => (error.rawType === 'card_error' ? 'CARD_ERROR' : undefined),
    );
    if (!replayed.ok) return replayed.failure.gatewayCode === 'CARD_ERROR' ? { ok: true, value: undefined } : replayed;
    return undo(replayed.value, req.idempotencyKey);
  }

  return {
    async authorise(req) {
      if (req.amount === 0n) return unsupported('stripe', 'zero-amount card verification');
      // Stripe runs 3-D Secure itself: it takes no authentication made elsewhere (no MPI data).
      if (req.externalThreeDs) return unsupported('stripe', 'authentication run elsewhere');
      const amount = toStripeAmount(req.currency, req.amount);
      if (amount === undefined) return failed('AMOUNT');
      const prepared = await paymentSource(req);
      if (!prepared.ok) return prepared;
      const { source, card } = prepared.value;
      const authentication: IntentAuthentication | undefined = req.authentication && {
        returnUrl: req.authentication.returnUrl,
        request: req.authentication.request ?? 'automatic',
      };
      // Kept before the call that moves money, so that `reverse` can replay it (within the key's life).
      await req.keep?.({ ...keptIntent(source, authentication), keptAt: new Date(now()).toISOString() });
      const intent = await call(() =>
        stripe.paymentIntents.create(paymentIntentParams(req, amount, source, authentication), keyed(req.idempotencyKey, 'pi')),
      );
      if (!intent.ok) return intent;
      return authorisation(intent.value, req.idempotencyKey, card, authentication !== undefined);
    },

    async capture(req) {
      const amount = await stripeAmount(req.providerChargeId, req.amount, req.currency);
      if (!amount.ok) return amount;
      const intent = await call(() =>
        stripe.paymentIntents.capture(
          req.providerChargeId,
          { amount_to_capture: Number(amount.value) },
          keyed(req.idempotencyKey, 'capture'),
        ),
      );
      if (!intent.ok) return intent;
      const captured = fromStripeAmount(intent.value.currency.toUpperCase(), intent.value.amount_received);
      return captured === undefined ? failed('BAD_RESPONSE') : { ok: true, value: { amount: captured } };
    },

    async void(req) {
      const cancelled = await call(() => stripe.paymentIntents.cancel(req.providerChargeId, {}, keyed(req.idempotencyKey, 'void')));
      return cancelled.ok ? { ok: true, value: {} } : cancelled;
    },

    async refund(req) {
      const amount = await stripeAmount(req.providerChargeId, req.amount, req.currency);
      if (!amount.ok) return amount;
      const refund = await call(() =>
        stripe.refunds.create(
          { payment_intent: req.providerChargeId, amount: Number(amount.value), metadata: { refund: req.idempotencyKey.slice(0, 500) } },
          keyed(req.idempotencyKey, 'refund'),
        ),
      );
      if (!refund.ok) return refund;
      const { id, status } = refund.value;
      if (status === 'failed' || status === 'canceled') return failed('REFUND_FAILED');
      // A refund Stripe has not settled yet: its outcome comes by a refund.updated event.
      const pending = status === 'pending' || status === 'requires_action';
      return { ok: true, value: { providerRefundId: id, providerReference: id, ...(pending ? { pending } : {}) } };
    },

    reverse,

    async checkCredentials(): Promise<CredentialCheck> {
      try {
        await stripe.balance.retrieve();
        return { ok: true };
      } catch (error) {
        const code = codeFor(error);
        if (code === 'TIMEOUT') return { ok: false, cause: 'timed_out', timeoutMs: options.timeoutMs };
        if (code === 'NETWORK') return { ok: false, cause: 'unreachable' };
        const status = stripeError(error)?.statusCode;
        // An error without an error status (an answer stripe-node could not read) is not Stripe's.
        return status !== undefined && status >= 400 ? credentialVerdict(status) : { ok: false, cause: 'answered', httpStatus: status };
      }
    },

    async storeCard(req) {
      const key = req.idempotencyKey;
      const { source } = req;
      let pm: ProviderResult<{ id: string }>;
      if (source.type === 'card') {
        pm = await call(() => stripe.paymentMethods.create(paymentMethodParams(source.card), keyed(key, 'pm')), rawCardRefusal);
      } else if (source.token.startsWith('tok_')) {
        pm = await call(() => stripe.paymentMethods.create({ type: 'card', card: { token: source.token } }, keyed(key, 'pm')));
      } else if (source.token.startsWith('pm_')) {
        pm = { ok: true, value: { id: source.token } };
      } else return failed('UNKNOWN_TOKEN');
      if (!pm.ok) return pm;
      const pmId = pm.value.id;
      const metadata: Record<string, string> = req.ownerReference ? { owner: req.ownerReference.slice(0, 500) } : {};
      const customer = await call(() => stripe.customers.create({ metadata }, keyed(key, 'customer')));
      if (!customer.ok) return customer;
      const attached = await call(() => stripe.paymentMethods.attach(pmId, { customer: customer.value.id }, keyed(key, 'attach')));
      if (!attached.ok) return attached;
      return { ok: true, value: storedCard(attached.value, customer.value.id, source.type === 'card' ? source.card.number : undefined) };
    },

    describeStoredCard,

    async updateStoredCard(req) {
      const described = await describeStoredCard(req);
      if (!described.ok) return described;
      const { expiryMonth, expiryYear, cardholder } = req;
      const card = {
        ...(expiryMonth !== undefined ? { exp_month: expiryMonth } : {}),
        ...(expiryYear !== undefined ? { exp_year: expiryYear } : {}),
      };
      const updated = await call(() =>
        stripe.paymentMethods.update(req.providerToken, {
          ...(Object.keys(card).length ? { card } : {}),
          ...(cardholder !== undefined ? { billing_details: { name: cardholder } } : {}),
        }),
      );
      return updated.ok ? { ok: true, value: storedCard(updated.value, described.value.providerData!.customer!) } : updated;
    },

    async deleteStoredCard(req) {
      const pm = await call(() => stripe.paymentMethods.retrieve(req.providerToken));
      if (!pm.ok) return pm.failure.category === 'not_found' ? { ok: true, value: undefined } : pm;
      // Detached already (a repeated delete): nothing left to do.
      if (!pm.value.customer) return { ok: true, value: undefined };
      const detached = await call(() => stripe.paymentMethods.detach(req.providerToken));
      return detached.ok ? { ok: true, value: undefined } : detached;
    },

    createNetworkToken: async () => unsupported('stripe', 'network tokens'),
    debit: async (req) => unsupported('stripe', req.account.type === 'payto' ? 'PayTo' : 'bank account debits'),
    paymentState: async () => unsupported('stripe', 'bank account debits'),
    createPayToAgreement: async () => unsupported('stripe', 'PayTo'),
    authenticationResult,
  };
}
