import {
  balanceObject,
  cardTokenObject,
  chargeObject,
  customerObject,
  cvcTokenObject,
  newId,
  paymentIntentObject,
  paymentMethodObject,
  refundObject,
  type CardData,
  type Json,
  type ThreeDSecureDetails,
} from './objects.js';
import { luhnValid, STRIPE_TEST_CARDS, testCard, type StripeTestCard } from './test-cards.js';

/**
 * What Stripe does with the calls the connector makes, as its API reference and testing
 * documentation describe it: payment methods, customers, tokens, payment intents, refunds.
 */

export interface Answer {
  status: number;
  body: Json;
}

const ok = (body: Json): Answer => ({ status: 200, body });
const invalid = (message: string, extra: Json = {}): Answer => ({
  status: 400,
  body: { error: { type: 'invalid_request_error', message, ...extra } },
});
const missing = (kind: string, id: string, param?: string): Answer => ({
  status: 404,
  body: {
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, ...(param ? { param } : {}) },
  },
});
const cardError = (code: string, declineCode: string | undefined, extra: Json = {}): Answer => ({
  status: 402,
  body: {
    error: {
      type: 'card_error',
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message: 'Your card was declined.',
      doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
      ...extra,
    },
  },
});

/** Stripe's own words when raw card numbers are not enabled for the account (no `code`). */
export const RAW_CARD_DATA_MESSAGE =
  'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable raw card data APIs in test mode, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.';

const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));
const THREE_DECIMAL = new Set('bhd jod kwd omr tnd'.split(' '));
const MAX_AMOUNT = 99_999_999;

interface PaymentMethodState {
  object: Json;
  data: CardData;
  /** Once detached, or used unattached, a payment method cannot be used again. */
  spent: boolean;
}

/** The operations the fake implements (its other operations answer 400, recorded as violations). */
export const IMPLEMENTED = [
  'post /v1/payment_methods',
  'get /v1/payment_methods/{payment_method}',
  'post /v1/payment_methods/{payment_method}',
  'post /v1/payment_methods/{payment_method}/attach',
  'post /v1/payment_methods/{payment_method}/detach',
  'post /v1/customers',
  'get /v1/customers/{customer}',
  'post /v1/tokens',
  'post /v1/payment_intents',
  'get /v1/payment_intents/search',
  'get /v1/payment_intents/{intent}',
  'post /v1/payment_intents/{intent}/capture',
  'post /v1/payment_intents/{intent}/cancel',
  'post /v1/refunds',
  'get /v1/refunds/{refund}',
  'get /v1/balance',
] as const;

export type RefundStatus = 'succeeded' | 'pending' | 'failed';

/** What the payer does on a challenge page: Stripe's test page has these two buttons. */
export type ChallengeOutcome = 'complete' | 'fail';

/** What the behaviour needs of the server around it. */
export interface BehaviourHooks {
  /** The address of a payment intent's challenge page, on the fake's own address (not Stripe's API). */
  challengePage(intentId: string): string;
  /** A payment intent changed as Stripe announces by an event (`payment_intent.succeeded`…). */
  announce(type: string, intent: Json): void;
}

/** A challenge a payment intent waits for: the browser comes back to `returnUrl` after it. */
interface Challenge {
  pm: PaymentMethodState;
  returnUrl: string;
}

/** How a payment intent is confirmed. */
interface Confirmation {
  offSession: boolean;
  /** A CVC came with the confirmation (a cvc_update token). */
  cvcGiven: boolean;
  /** Where the payer's browser returns after a redirect (`return_url`): a challenge is possible. */
  returnUrl?: string;
}

/** The payer was authenticated by 3-D Secure 2.2 (`payment_method_details.card.three_d_secure`). */
const authenticated = (flow: 'challenge' | 'frictionless'): ThreeDSecureDetails => ({
  authentication_flow: flow,
  result: 'authenticated',
  result_reason: null,
  version: '2.2.0',
});

/** Stripe's error when the payer failed (or abandoned) a 3-D Secure challenge. */
const AUTHENTICATION_FAILURE = {
  type: 'invalid_request_error',
  code: 'payment_intent_authentication_failure',
  doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
  message:
    'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
};

export class StripeBehaviour {
  rawCardsAllowed = true;
  /** The status new refunds get: cards refund at once, some take days (pending), a few fail. */
  refundStatus: RefundStatus = 'succeeded';
  readonly paymentMethods = new Map<string, PaymentMethodState>();
  readonly customers = new Map<string, Json>();
  readonly intents = new Map<string, Json>();
  readonly charges = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  readonly #tokens = new Map<string, { object: Json; data?: CardData; used: boolean; cvc?: string }>();
  /** Payment intents that were sent to a challenge page, by id (kept once over: the page sends the browser back again). */
  readonly #challenges = new Map<string, Challenge>();

  constructor(
    private readonly now: () => number,
    private readonly hooks: BehaviourHooks,
  ) {}

  #created(): number {
    return Math.floor(this.now() / 1000);
  }

  /** A card as Stripe.js would hand it to the merchant's page: an unattached payment method. */
  clientPaymentMethod(number: string, expMonth: number, expYear: number, cvc?: string): string {
    return this.#storePaymentMethod({ card: testCard(number), expMonth, expYear, cvcGiven: cvc !== undefined }, null).object.id as string;
  }

  /** A card as Stripe.js would tokenise it: a single-use `tok_`. */
  clientToken(number: string, expMonth: number, expYear: number): string {
    const data: CardData = { card: testCard(number), expMonth, expYear, cvcGiven: false };
    const id = newId('tok');
    const pm = paymentMethodObject(id, data, this.#created(), null, null);
    this.#tokens.set(id, { object: cardTokenObject(id, pm, this.#created()), data, used: false });
    return id;
  }

  handle(route: string, id: string, params: Json): Answer {
    switch (route) {
      case 'post /v1/payment_methods':
        return this.#createPaymentMethod(params);
      case 'get /v1/payment_methods/{payment_method}':
        return this.#withPaymentMethod(id, (pm) => ok(pm.object));
      case 'post /v1/payment_methods/{payment_method}':
        return this.#withPaymentMethod(id, (pm) => this.#updatePaymentMethod(pm, params));
      case 'post /v1/payment_methods/{payment_method}/attach':
        return this.#attach(id, String(params.customer));
      case 'post /v1/payment_methods/{payment_method}/detach':
        return this.#withPaymentMethod(id, (pm) => this.#detach(pm));
      case 'post /v1/customers':
        return this.#createCustomer(params);
      case 'get /v1/customers/{customer}': {
        const customer = this.customers.get(id);
        return customer ? ok(customer) : missing('customer', id);
      }
      case 'post /v1/tokens':
        return this.#createToken(params);
      case 'post /v1/payment_intents':
        return this.#expanding(params, () => this.#createIntent(params));
      case 'get /v1/payment_intents/search':
        return this.#searchIntents(params);
      case 'get /v1/payment_intents/{intent}':
        return this.#expanding(params, () => this.#withIntent(id, ok));
      case 'post /v1/payment_intents/{intent}/capture':
        return this.#expanding(params, () => this.#withIntent(id, (intent) => this.#capture(intent, params)));
      case 'post /v1/payment_intents/{intent}/cancel':
        return this.#expanding(params, () => this.#withIntent(id, (intent) => this.#cancel(intent, params)));
      case 'post /v1/refunds':
        return this.#refund(params);
      case 'get /v1/refunds/{refund}': {
        const refund = this.refunds.get(id);
        return refund ? ok(refund) : missing('refund', id);
      }
      case 'get /v1/balance':
        return ok(balanceObject());
      default:
        return invalid(`The fake Stripe does not implement ${route}`);
    }
  }

  #storePaymentMethod(data: CardData, name: string | null, customer: string | null = null): PaymentMethodState {
    const id = newId('pm');
    const state = { object: paymentMethodObject(id, data, this.#created(), name, customer), data, spent: false };
    this.paymentMethods.set(id, state);
    return state;
  }

  /** A payment method by id: the test ids (`pm_card_visa`) stand for a fresh one each time. */
  #paymentMethod(id: string): PaymentMethodState | undefined {
    const test = STRIPE_TEST_CARDS.find((c) => c.paymentMethod === id);
    if (test) return { object: paymentMethodObject(id, testData(test), this.#created(), null, null), data: testData(test), spent: false };
    return this.paymentMethods.get(id);
  }

  #withPaymentMethod(id: string, then: (pm: PaymentMethodState) => Answer): Answer {
    const pm = this.#paymentMethod(id);
    return pm ? then(pm) : missing('PaymentMethod', id);
  }

  #createPaymentMethod(params: Json): Answer {
    if (params.type !== 'card' || typeof params.card !== 'object' || params.card === null) {
      return invalid('The fake Stripe creates card payment methods only', { param: 'type' });
    }
    const card = params.card as Json;
    const name = ((params.billing_details as Json | undefined)?.name as string | undefined) ?? null;
    if (typeof card.token === 'string') {
      const token = this.#tokens.get(card.token) ?? testToken(card.token);
      if (!token?.data) return missing('token', card.token, 'card[token]');
      if (token.used) return invalid(`You cannot use a Stripe token more than once: ${card.token}.`, { code: 'token_already_used' });
      if (this.#tokens.has(card.token)) token.used = true;
      return ok(this.#storePaymentMethod(token.data, name).object);
    }
    if (!this.rawCardsAllowed) return invalid(RAW_CARD_DATA_MESSAGE);
    const number = String(card.number);
    const refused = cardDataError(number, Number(card.exp_month), Number(card.exp_year), card.cvc as string | undefined, this.now());
    if (refused) return refused;
    const data = {
      card: testCard(number),
      expMonth: Number(card.exp_month),
      expYear: Number(card.exp_year),
      cvcGiven: card.cvc !== undefined,
    };
    return ok(this.#storePaymentMethod(data, name).object);
  }

  #updatePaymentMethod(pm: PaymentMethodState, params: Json): Answer {
    if (!pm.object.customer) return invalid('You must save this PaymentMethod to a customer before you can update it.');
    const card = (params.card as Json | undefined) ?? {};
    const expMonth = card.exp_month === undefined ? pm.data.expMonth : Number(card.exp_month);
    const expYear = card.exp_year === undefined ? pm.data.expYear : Number(card.exp_year);
    if (expMonth < 1 || expMonth > 12) return cardError('invalid_expiry_month', undefined, { param: 'card[exp_month]' });
    pm.data = { ...pm.data, expMonth, expYear };
    Object.assign(pm.object.card as Json, { exp_month: expMonth, exp_year: expYear });
    const name = (params.billing_details as Json | undefined)?.name;
    if (typeof name === 'string') (pm.object.billing_details as Json).name = name;
    return ok(pm.object);
  }

  #attach(id: string, customerId: string): Answer {
    const found = this.#paymentMethod(id);
    if (!found) return missing('PaymentMethod', id);
    if (!this.customers.has(customerId)) return missing('customer', customerId, 'customer');
    if (found.spent) {
      return invalid(
        'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
      );
    }
    if (found.object.customer) {
      return found.object.customer === customerId
        ? ok(found.object)
        : invalid('The payment method you provided has already been attached to a customer.');
    }
    const { behaviour } = found.data.card;
    if (behaviour.kind === 'decline' && behaviour.onAttach) return cardError(behaviour.code, behaviour.declineCode);
    // In test mode, attaching a test payment method id attaches a new payment method made from it.
    const pm = this.paymentMethods.get(id) ?? this.#storePaymentMethod(found.data, null);
    pm.object.customer = customerId;
    return ok(pm.object);
  }

  #detach(pm: PaymentMethodState): Answer {
    if (!pm.object.customer) return invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
    pm.object.customer = null;
    pm.spent = true;
    return ok(pm.object);
  }

  #createCustomer(params: Json): Answer {
    const id = newId('cus');
    const customer = customerObject(
      id,
      this.#created(),
      (params.metadata as Json | undefined) ?? {},
      (params.description as string | undefined) ?? null,
    );
    this.customers.set(id, customer);
    return ok(customer);
  }

  #createToken(params: Json): Answer {
    const cvcUpdate = params.cvc_update as Json | undefined;
    if (!cvcUpdate) return invalid('The fake Stripe creates cvc_update tokens only (card tokens come from Stripe.js)');
    if (!this.rawCardsAllowed) return invalid(RAW_CARD_DATA_MESSAGE);
    const cvc = String(cvcUpdate.cvc);
    if (!/^\d{3,4}$/.test(cvc)) return cardError('invalid_cvc', undefined, { param: 'cvc_update[cvc]' });
    const id = newId('cvctok');
    const token = cvcTokenObject(id, this.#created());
    this.#tokens.set(id, { object: token, used: false, cvc });
    return ok(token);
  }

  /**
   * Stripe's search, for the one clause the connector sends: `metadata['key']:'value'` (quotes and
   * backslashes in the value escaped by a backslash). Stripe's index lags by up to a minute; the
   * fake's does not. Anything else is refused, as Stripe refuses a query it cannot parse.
   */
  #searchIntents(params: Json): Answer {
    const clause = /^metadata\['([^'\\]+)'\]:'((?:[^'\\]|\\.)*)'$/.exec(String(params.query));
    if (!clause) return invalid('The fake Stripe searches only by one metadata clause', { param: 'query' });
    const [, key, escaped] = clause;
    const value = escaped!.replace(/\\(.)/g, '$1');
    const data = [...this.intents.values()].filter((intent) => (intent.metadata as Json | undefined)?.[key!] === value);
    const limit = Number(params.limit ?? 10);
    return ok({
      object: 'search_result',
      data: data.slice(0, limit),
      has_more: data.length > limit,
      next_page: null,
      url: '/v1/payment_intents/search',
    });
  }

  /**
   * A payment intent answer with the fields `expand[]` names as objects (a copy: the answer is what
   * it was when given). The fake expands `latest_charge` only, and refuses anything else first.
   */
  #expanding(params: Json, run: () => Answer): Answer {
    const expand = Array.isArray(params.expand) ? (params.expand as unknown[]) : [];
    const other = expand.find((field) => field !== 'latest_charge');
    if (other !== undefined) return invalid(`The fake Stripe expands latest_charge only, not ${String(other)}`, { param: 'expand' });
    const answer = run();
    const charge = answer.status === 200 && expand.length > 0 ? this.charges.get(answer.body.latest_charge as string) : undefined;
    return charge ? ok({ ...structuredClone(answer.body), latest_charge: structuredClone(charge) }) : answer;
  }

  #withIntent(id: string, then: (intent: Json) => Answer): Answer {
    const intent = this.intents.get(id);
    return intent ? then(intent) : missing('payment_intent', id);
  }

  #createIntent(params: Json): Answer {
    const amount = Number(params.amount);
    const currency = String(params.currency);
    const amountProblem = amountError(currency, amount);
    if (amountProblem) return amountProblem;
    for (const param of ['off_session', 'return_url']) {
      if (params[param] !== undefined && params.confirm !== true) return invalid(`${param} can only be used with confirm=true`, { param });
    }
    const returnUrl = params.return_url as string | undefined;
    if (returnUrl !== undefined && !URL.canParse(returnUrl)) return invalid('Not a valid URL', { param: 'return_url' });
    const pmId = params.payment_method as string | undefined;
    const pm = pmId === undefined ? undefined : this.#paymentMethod(pmId);
    if (pmId !== undefined && !pm) return missing('PaymentMethod', pmId, 'payment_method');
    const customer = params.customer as string | undefined;
    if (customer !== undefined && !this.customers.has(customer)) return missing('customer', customer, 'customer');
    if (pm && pm.object.customer && pm.object.customer !== customer) {
      return invalid(
        customer
          ? 'The provided PaymentMethod belongs to a different Customer.'
          : 'The provided PaymentMethod was previously attached to a Customer. To use a PaymentMethod that has been attached to a Customer, you must provide its Customer ID.',
        { param: 'payment_method' },
      );
    }
    if (pm?.spent)
      return invalid('This PaymentMethod was previously used without being attached to a Customer, and may not be used again.');
    const cvcToken = ((params.payment_method_options as Json | undefined)?.card as Json | undefined)?.cvc_token as string | undefined;
    const token = cvcToken === undefined ? undefined : this.#tokens.get(cvcToken);
    if (cvcToken !== undefined && (!token || token.cvc === undefined))
      return missing('token', cvcToken, 'payment_method_options[card][cvc_token]');
    if (token?.used) return invalid(`You cannot use a Stripe token more than once: ${cvcToken}.`, { code: 'token_already_used' });

    const intent = paymentIntentObject(newId('pi'), params, this.#created());
    this.intents.set(intent.id as string, intent);
    if (params.confirm !== true || !pm) {
      intent.status = pm ? 'requires_confirmation' : 'requires_payment_method';
      return ok(intent);
    }
    if (token) token.used = true;
    if (pm.object.customer === null && this.paymentMethods.has(pmId!)) pm.spent = true;
    const offSession = params.off_session !== undefined && params.off_session !== false;
    return this.#confirm(intent, pm, { offSession, cvcGiven: token !== undefined, returnUrl });
  }

  #confirm(intent: Json, pm: PaymentMethodState, how: Confirmation): Answer {
    const { behaviour } = pm.data.card;
    if (behaviour.kind === 'decline') return this.#decline(intent, pm, behaviour);
    if (behaviour.kind === 'cvc_check_fails' && (how.cvcGiven || pm.data.cvcGiven))
      return this.#decline(intent, pm, { code: 'incorrect_cvc', declineCode: 'incorrect_cvc' });
    const requested = ((intent.payment_method_options as Json).card as Json).request_three_d_secure === 'any';
    if (behaviour.kind === 'authenticate' || (behaviour.kind === 'frictionless' && requested)) {
      if (how.offSession) return this.#decline(intent, pm, { code: 'authentication_required', declineCode: 'authentication_required' });
      return this.#requireAction(intent, pm, how.returnUrl);
    }
    // A card enrolled in 3-D Secure 2 is authenticated without a challenge when the browser can be sent to the issuer.
    this.#authorise(intent, pm, behaviour.kind === 'frictionless' && how.returnUrl !== undefined ? authenticated('frictionless') : null);
    return ok(intent);
  }

  /** The issuer declines: a failed charge, the intent back to requires_payment_method, a card error. */
  #decline(
    intent: Json,
    pm: PaymentMethodState,
    decline: { code: string; declineCode: string },
    threeDSecure: ThreeDSecureDetails | null = null,
  ) {
    const { code, declineCode } = decline;
    const charge = chargeObject(
      newId('ch'),
      intent,
      this.#created(),
      { pm: pm.object, threeDSecure },
      { code, message: 'Your card was declined.' },
    );
    this.charges.set(charge.id as string, charge);
    const error = { type: 'card_error', code, decline_code: declineCode, message: 'Your card was declined.', charge: charge.id };
    Object.assign(intent, { status: 'requires_payment_method', latest_charge: charge.id, last_payment_error: error, next_action: null });
    this.hooks.announce('payment_intent.payment_failed', intent);
    return cardError(code, declineCode, { charge: charge.id, payment_intent: intent, payment_method: pm.object });
  }

  /** The issuer authorises: a charge, and the intent waits for its capture or is paid. */
  #authorise(intent: Json, pm: PaymentMethodState, threeDSecure: ThreeDSecureDetails | null): void {
    const charge = chargeObject(newId('ch'), intent, this.#created(), { pm: pm.object, threeDSecure });
    this.charges.set(charge.id as string, charge);
    Object.assign(intent, { latest_charge: charge.id, next_action: null });
    if (intent.capture_method === 'manual') {
      Object.assign(intent, { status: 'requires_capture', amount_capturable: intent.amount });
      this.hooks.announce('payment_intent.amount_capturable_updated', intent);
    } else {
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
      Object.assign(charge, { captured: true, amount_captured: intent.amount });
      this.hooks.announce('payment_intent.succeeded', intent);
    }
  }

  /**
   * The payer must authenticate: with a `return_url`, on a challenge page the browser is redirected
   * to; without one only Stripe.js can run it (`use_stripe_sdk`), which the fake does not.
   */
  #requireAction(intent: Json, pm: PaymentMethodState, returnUrl: string | undefined): Answer {
    const id = intent.id as string;
    if (returnUrl !== undefined) this.#challenges.set(id, { pm, returnUrl });
    const next_action =
      returnUrl === undefined
        ? {
            type: 'use_stripe_sdk',
            use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: 'https://hooks.stripe.com/3d_secure_2/hosted' },
          }
        : { type: 'redirect_to_url', redirect_to_url: { url: this.hooks.challengePage(id), return_url: returnUrl } };
    Object.assign(intent, { status: 'requires_action', next_action });
    this.hooks.announce('payment_intent.requires_action', intent);
    return ok(intent);
  }

  /** Whether a payment intent's challenge page still takes an answer. */
  challengeOpen(id: string): boolean {
    return this.#challenges.has(id) && this.intents.get(id)?.status === 'requires_action';
  }

  /**
   * The payer's answer on a challenge page. Completed, the payment goes on as the card does (the
   * issuer may still decline); failed, the intent needs another payment method. Answers where the
   * page sends the browser: the return URL with `payment_intent` and `payment_intent_client_secret`.
   * Once the challenge is over (answered, or the intent cancelled) nothing changes and the browser
   * is sent back again. Undefined for an intent that never had a challenge page.
   */
  answerChallenge(id: string, outcome: ChallengeOutcome): string | undefined {
    const challenge = this.#challenges.get(id);
    const intent = this.intents.get(id);
    if (!challenge || !intent) return undefined;
    if (intent.status === 'requires_action') {
      const { behaviour } = challenge.pm.data.card;
      if (outcome === 'fail') {
        const error = { ...AUTHENTICATION_FAILURE, payment_method: challenge.pm.object };
        Object.assign(intent, { status: 'requires_payment_method', next_action: null, last_payment_error: error });
        this.hooks.announce('payment_intent.payment_failed', intent);
      } else if (behaviour.kind === 'authenticate' && behaviour.declineAfter) {
        this.#decline(intent, challenge.pm, behaviour.declineAfter, authenticated('challenge'));
      } else this.#authorise(intent, challenge.pm, authenticated('challenge'));
    }
    return this.returnAddress(id);
  }

  /** Where a challenge page sends the browser back: the return URL with `payment_intent` and `payment_intent_client_secret`. */
  returnAddress(id: string): string | undefined {
    const challenge = this.#challenges.get(id);
    const intent = this.intents.get(id);
    if (!challenge || !intent) return undefined;
    const back = new URL(challenge.returnUrl);
    back.searchParams.append('payment_intent', id);
    back.searchParams.append('payment_intent_client_secret', intent.client_secret as string);
    return back.toString();
  }

  #capture(intent: Json, params: Json): Answer {
    if (intent.status !== 'requires_capture') {
      return invalid(`This PaymentIntent could not be captured because it has a status of ${String(intent.status)}.`, {
        code: 'payment_intent_unexpected_state',
        payment_intent: intent,
      });
    }
    const capturable = intent.amount_capturable as number;
    const amount = params.amount_to_capture === undefined ? capturable : Number(params.amount_to_capture);
    if (amount > capturable) {
      return invalid('The amount to capture must be less than or equal to the amount capturable.', {
        code: 'amount_too_large',
        param: 'amount_to_capture',
      });
    }
    Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: amount });
    const charge = this.charges.get(intent.latest_charge as string)!;
    // The part not captured is released: Stripe counts it as refunded on the charge.
    Object.assign(charge, { captured: true, amount_captured: amount, amount_refunded: (intent.amount as number) - amount });
    this.hooks.announce('payment_intent.succeeded', intent);
    return ok(intent);
  }

  #cancel(intent: Json, params: Json): Answer {
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return invalid(`You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`, {
        code: 'payment_intent_unexpected_state',
        payment_intent: intent,
      });
    }
    const charge = this.charges.get(intent.latest_charge as string);
    if (charge && intent.status === 'requires_capture') Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    Object.assign(intent, {
      status: 'canceled',
      amount_capturable: 0,
      canceled_at: this.#created(),
      cancellation_reason: params.cancellation_reason ?? null,
      next_action: null,
    });
    this.hooks.announce('payment_intent.canceled', intent);
    return ok(intent);
  }

  #refund(params: Json): Answer {
    const id = (params.payment_intent ?? params.charge) as string | undefined;
    if (id === undefined) return invalid('One of charge or payment_intent is required.', { code: 'parameter_missing' });
    const intent =
      params.payment_intent !== undefined ? this.intents.get(id) : this.intents.get(String(this.charges.get(id)?.payment_intent));
    if (!intent) return missing(params.payment_intent !== undefined ? 'payment_intent' : 'charge', id);
    const charge = this.charges.get(intent.latest_charge as string);
    if (intent.status !== 'succeeded' || !charge) {
      return invalid(`This PaymentIntent (${id}) does not have a successful charge to refund.`, { code: 'charge_not_refundable' });
    }
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) return invalid(`Charge ${String(charge.id)} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (amount > left) {
      return invalid(`Refund amount is greater than unrefunded amount on charge.`, { code: 'amount_too_large', param: 'amount' });
    }
    const refund = refundObject(newId('re'), intent, amount, this.#created(), (params.metadata as Json | undefined) ?? {});
    this.refunds.set(refund.id as string, refund);
    this.#count(charge, amount);
    refund.status = this.refundStatus;
    if (this.refundStatus === 'failed') this.#count(charge, -amount);
    return ok(refund);
  }

  /** A pending refund settles: it succeeds, or fails and the charge has the money back. */
  settleRefund(id: string, status: 'succeeded' | 'failed'): void {
    const refund = this.refunds.get(id);
    if (refund?.status !== 'pending') throw new Error(`The fake Stripe has no pending refund ${id}`);
    refund.status = status;
    if (status === 'failed') this.#count(this.charges.get(refund.charge as string)!, -(refund.amount as number));
  }

  #count(charge: Json, amount: number): void {
    const refunded = (charge.amount_refunded as number) + amount;
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded === charge.amount });
  }
}

function testData(card: StripeTestCard): CardData {
  return { card, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvcGiven: false };
}

function testToken(id: string): { object: Json; data?: CardData; used: boolean } | undefined {
  const card = STRIPE_TEST_CARDS.find((c) => c.token === id);
  return card && { object: {}, data: testData(card), used: false };
}

/** Stripe's checks of raw card data when a payment method is created. */
function cardDataError(number: string, expMonth: number, expYear: number, cvc: string | undefined, now: number): Answer | undefined {
  if (!luhnValid(number))
    return cardError('incorrect_number', undefined, { param: 'card[number]', message: 'Your card number is incorrect.' });
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12)
    return cardError('invalid_expiry_month', undefined, { param: 'card[exp_month]' });
  const today = new Date(now);
  const year = today.getUTCFullYear();
  if (expYear < year || (expYear === year && expMonth < today.getUTCMonth() + 1) || expYear > year + 50) {
    return cardError('invalid_expiry_year', undefined, { param: 'card[exp_year]' });
  }
  if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) return cardError('invalid_cvc', undefined, { param: 'card[cvc]' });
  return undefined;
}

/** Amounts Stripe cannot take: too small or large, or finer than the currency allows (ISK, three-decimal currencies). */
function amountError(currency: string, amount: number): Answer | undefined {
  if (amount < 1) return invalid('Amount must be at least 1', { code: 'amount_too_small', param: 'amount' });
  if (amount > MAX_AMOUNT) return invalid('Amount must be no more than 99,999,999', { code: 'amount_too_large', param: 'amount' });
  const unit = currency === 'isk' ? 100 : THREE_DECIMAL.has(currency) ? 10 : 1;
  if (amount % unit !== 0 || (ZERO_DECIMAL.has(currency) && !Number.isInteger(amount))) {
    return invalid(`Invalid amount: amounts in ${currency.toUpperCase()} must be evenly divisible by ${unit}.`, {
      code: 'invalid_charge_amount_no_decimal_compatible',
      param: 'amount',
    });
  }
  return undefined;
}
