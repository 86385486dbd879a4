import { createHash, randomBytes } from 'node:crypto';
import { CURRENCIES } from '@gateway/core';
import {
  brandOf,
  FAILING_MODIFICATION_NAMES,
  holderNameOutcome,
  luhnValid,
  TEST_CARDS,
  TEST_EXPIRY,
  type ResultCode,
  type TestCard,
  type TestOutcome,
} from './test-cards.js';
import {
  authenticated,
  issuerAuthentication,
  merchantAuthentication,
  threeDS2Result,
  threeDsAdditionalData,
  type ChallengeOutcome,
  type FakeThreeDSecure,
} from './three-d-secure.js';

/**
 * The fake Adyen's payments, modifications and stored payment methods, and the rules Adyen's
 * Checkout API v71 applies to them. Requests reach it already authenticated, checked against the
 * API description and for their merchant account (server.ts). Money is Adyen's minor units.
 *
 * Modifications (captures, cancels, refunds, reversals, technical cancels) answer "received" as
 * Adyen does; whether they succeed is decided at once and told in the notification that follows.
 *
 * 3-D Secure: a payment the issuer challenges answers RedirectShopper and waits (it can be
 * cancelled meanwhile); the shopper's verdict on the challenge page (challenge-page.ts) authorises
 * or refuses it, sends the AUTHORISATION notification and hands the browser a redirectResult, which
 * /payments/details reads once.
 */

type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  body?: Json;
  /** Notification items to send once answered, in order. */
  notifications: NotificationDraft[];
}

/** A NotificationRequestItem before the merchant account, date and signature are added. */
export interface NotificationDraft {
  eventCode: string;
  success: boolean;
  pspReference: string;
  originalReference?: string;
  merchantReference: string;
  amount: { currency: string; value: number };
  reason?: string;
  paymentMethod?: string;
  additionalData?: Record<string, string>;
}

export type ModificationKind = 'capture' | 'cancel' | 'refund' | 'reversal' | 'technicalCancel';

export interface FakeAdyenModification {
  kind: ModificationKind;
  pspReference: string;
  /** The modification request's own reference. */
  reference?: string;
  /** Adyen minor units; absent for a cancel. */
  value?: number;
  status: 'succeeded' | 'failed';
  /** For a reversal: what it did. */
  action?: 'cancel' | 'refund';
}

export interface FakeAdyenPayment {
  pspReference: string;
  /** Adyen's `reference`: the connector sends the attempt's idempotency key. */
  reference: string;
  merchantOrderReference?: string;
  currency: string;
  /** Adyen minor units. */
  value: number;
  resultCode: ResultCode;
  refusalReasonCode?: string;
  /** How the shopper was authenticated (3-D Secure 2), once known. */
  threeDSecure?: FakeThreeDSecure;
  card: { bin: string; last4: string; brand: string; holderName?: string };
  storedPaymentMethodId?: string;
  shopperReference?: string;
  shopperInteraction?: string;
  recurringProcessingModel?: string;
  cvcSent: boolean;
  manualCapture: boolean;
  /** Captured and not failed since; an automatically captured payment is captured in full. */
  captured: number;
  refunded: number;
  cancelled: boolean;
  modifications: FakeAdyenModification[];
}

export interface FakeStoredPaymentMethod {
  id: string;
  shopperReference: string;
  brand: string;
  bin: string;
  last4: string;
  expiryMonth: string;
  /** Four digits. */
  expiryYear: string;
  holderName?: string;
  recurringProcessingModel: string;
  deleted: boolean;
  /** Which test card it is (never the number itself). */
  fingerprint: string;
}

/** A card to keep for a shopper, as a test hands it to the fake. */
export interface StoredCardSeed {
  shopperReference: string;
  number: string;
  expiryMonth: string;
  /** Four digits. */
  expiryYear: string;
  holderName?: string;
}

export function serviceError(status: number, errorCode: string, message: string, errorType = 'validation'): Answer {
  return { status, body: { status, errorCode, message, errorType, pspReference: pspReference() }, notifications: [] };
}

/** Adyen's 16-character reference. */
export function pspReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}

const received = (body: Json, notifications: NotificationDraft[]): Answer => ({
  status: 201,
  body: { ...body, status: 'received' },
  notifications,
});

const CONTRACT_NOT_FOUND = ['800', 'Contract not found'] as const;

/** The card a payment is made with, as the fake keeps it (never the number). */
type PaidCard = { bin: string; last4: string; brand: string; holderName?: string; expiryMonth: string; expiryYear: string };
type CardToStore = { number: string; expiryMonth: string; expiryYear: string; holderName?: string };

/** A payment made, before its authorisation is decided (at once, or after its challenge). */
interface PendingAuthorisation {
  payment: FakeAdyenPayment;
  card: PaidCard;
  /** What the card holder name (or wrong card data) asks of the test environment. */
  testOutcome?: TestOutcome;
  /** The stored payment method charged. */
  stored?: FakeStoredPaymentMethod;
  /** The card to store once authorised (storePaymentMethod). */
  toStore?: CardToStore;
  storing: boolean;
}

/** A payment's 3-D Secure challenge: waiting for the shopper, then its result for /payments/details. */
interface Challenge {
  pending: PendingAuthorisation;
  returnUrl: string;
  method: 'GET' | 'POST';
  /** Proof that the browser came by Adyen's redirect: in the GET's query, or POSTed by the form. */
  creq: string;
  refusedAfterChallenge: boolean;
  /** Set when the shopper has finished. */
  redirectResult?: string;
  /** The /payments/details answer for it. */
  details?: Json;
  detailsRead?: boolean;
}

/** What the challenge page shows of a payment. */
export interface ChallengeView {
  merchantAccount: string;
  currency: string;
  /** Adyen minor units. */
  value: number;
  brand: string;
  last4: string;
  method: 'GET' | 'POST';
  /** Where the browser goes back to, once the challenge is over. */
  returnTo?: string;
}

/** The returnUrl with the challenge's redirectResult added to its query. */
function returnLocation(challenge: Challenge): string {
  const url = new URL(challenge.returnUrl);
  url.searchParams.set('redirectResult', challenge.redirectResult!);
  return url.toString();
}

export class AdyenLedger {
  readonly payments = new Map<string, FakeAdyenPayment>();
  readonly stored = new Map<string, FakeStoredPaymentMethod>();
  rawCardsAllowed = true;
  readonly #failNext = new Set<ModificationKind>();
  readonly #challenges = new Map<string, Challenge>();
  /** redirectResult → pspReference. */
  readonly #redirectResults = new Map<string, string>();
  readonly #authorisations = new Map<string, NotificationDraft>();

  readonly #currencies: ReadonlySet<string>;

  /**
   * @param challengePageBase the URL under which the server serves challenge pages (`<base>/<pspReference>`),
   * known once it listens.
   */
  constructor(
    private readonly merchantAccount: string,
    currencies: readonly string[] = [...CURRENCIES.keys()],
    private readonly challengePageBase: () => string = () => 'http://127.0.0.1/fake/3ds',
  ) {
    this.#currencies = new Set(currencies);
  }

  /** The next modification of this kind fails (its notification says success "false"). */
  failNextModification(kind: ModificationKind): void {
    this.#failNext.add(kind);
  }

  /** Keeps a card as if a shopper had stored it earlier: a token a merchant brings. */
  addStoredPaymentMethod(card: StoredCardSeed): string {
    return this.#store(card.shopperReference, card, 'CardOnFile').id;
  }

  // POST /payments
  pay(request: Json): Answer {
    const method = request.paymentMethod as Json;
    const amount = request.amount as { currency: string; value: number };
    const reference = String(request.reference);
    const shopperReference = optionalText(request.shopperReference);
    const recurringProcessingModel = optionalText(request.recurringProcessingModel);
    const shopperInteraction = optionalText(request.shopperInteraction) ?? 'Ecommerce';
    const additionalData = (request.additionalData ?? {}) as Record<string, string>;
    if (method.type !== 'scheme') return serviceError(422, '905', 'Payment details are not supported');
    if (!this.#currencies.has(amount.currency)) return serviceError(422, '138', 'Unsupported currency specified');
    if (amount.value < 0) return serviceError(422, '137', 'Invalid amount specified');
    const storing = request.storePaymentMethod === true;
    const storedId = optionalText(method.storedPaymentMethodId);
    if ((storing || storedId) && (!shopperReference || shopperReference.length < 3)) {
      return serviceError(422, '000', 'Recurring payments require a shopperReference');
    }
    if ((storing || storedId) && !recurringProcessingModel) return serviceError(422, '000', 'Missing recurringProcessingModel');

    let card: PaidCard;
    let testCard: TestCard | undefined;
    let testOutcome: TestOutcome | undefined;
    let stored: FakeStoredPaymentMethod | undefined;
    let toStore: CardToStore | undefined;
    const cvc = optionalText(method.cvc);
    if (storedId) {
      stored = this.stored.get(storedId);
      if (!stored || stored.deleted || stored.shopperReference !== shopperReference) return serviceError(422, ...CONTRACT_NOT_FOUND);
      card = stored;
      testCard = TEST_CARDS.find((c) => fingerprint(c.number) === stored!.fingerprint);
      if (cvc !== undefined && cvc !== testCard?.cvc) testOutcome = holderNameOutcome('DECLINED');
    } else {
      if (!this.rawCardsAllowed) return serviceError(403, '010', 'Not allowed', 'security');
      const number = String(method.number ?? '');
      if (!luhnValid(number)) return serviceError(422, '101', 'Invalid card number');
      const expiryMonth = String(method.expiryMonth ?? '');
      const expiryYear = String(method.expiryYear ?? '');
      if (!/^(0?[1-9]|1[0-2])$/.test(expiryMonth) || !/^[0-9]{4}$/.test(expiryYear)) return serviceError(422, '129', 'Expiry Date Invalid');
      if (cvc !== undefined && !/^[0-9]{3,4}$/.test(cvc)) return serviceError(422, '103', 'CVC is not the right length');
      testCard = TEST_CARDS.find((c) => c.number === number);
      const holderName = optionalText(method.holderName);
      card = { bin: number.slice(0, 6), last4: number.slice(-4), brand: brandOf(number), holderName, expiryMonth, expiryYear };
      const expiryMatches = expiryMonth.padStart(2, '0') === TEST_EXPIRY.month && expiryYear === TEST_EXPIRY.year;
      if (!testCard || !expiryMatches || (cvc !== undefined && cvc !== testCard.cvc)) testOutcome = holderNameOutcome('DECLINED');
      if (storing) toStore = { number, expiryMonth, expiryYear, holderName };
    }
    testOutcome ??= holderNameOutcome(card.holderName);

    const payment: FakeAdyenPayment = {
      pspReference: pspReference(),
      reference,
      merchantOrderReference: optionalText(request.merchantOrderReference),
      currency: amount.currency,
      value: amount.value,
      resultCode: 'Received',
      card: { bin: card.bin, last4: card.last4, brand: card.brand, holderName: card.holderName },
      storedPaymentMethodId: stored?.id,
      shopperReference,
      shopperInteraction,
      recurringProcessingModel,
      cvcSent: cvc !== undefined,
      manualCapture: additionalData.manualCapture === 'true',
      captured: 0,
      refunded: 0,
      cancelled: false,
      modifications: [],
    };
    this.payments.set(payment.pspReference, payment);
    const pending: PendingAuthorisation = { payment, card, testOutcome, stored, toStore, storing };

    const merchantRun = merchantAuthentication(request);
    if (merchantRun) return this.#authorise(pending, merchantRun, false);
    // The issuer challenges a shopper-present payment on a 3-D Secure card (Adyen redirects to the
    // challenge whether or not the request took part in 3-D Secure 2 on the web: without it, a
    // 3-D Secure 1 style redirect).
    if (testCard?.threeDSecure === 'challenge' && shopperInteraction === 'Ecommerce') return this.#redirect(pending, request, testCard);
    const web = request.channel === 'Web' && typeof request.browserInfo === 'object';
    const attempted = (request.authenticationData as Json | undefined)?.attemptAuthentication === 'always';
    if (web && shopperInteraction === 'Ecommerce' && (testCard?.threeDSecure === 'frictionless' || attempted)) {
      return this.#authorise(pending, issuerAuthentication(card.brand, 'frictionless'), false);
    }
    return this.#authorise(pending, undefined, false);
  }

  /** RedirectShopper: the payment waits for the shopper on the issuer's challenge page (served by the fake). */
  #redirect(pending: PendingAuthorisation, request: Json, testCard: TestCard): Answer {
    const { payment } = pending;
    payment.resultCode = 'RedirectShopper';
    const challenge: Challenge = {
      pending,
      returnUrl: String(request.returnUrl),
      method: testCard.challengeByPost ? 'POST' : 'GET',
      creq: randomBytes(18).toString('base64url'),
      refusedAfterChallenge: testCard.refusedAfterChallenge === true,
    };
    this.#challenges.set(payment.pspReference, challenge);
    return {
      status: 200,
      body: {
        pspReference: payment.pspReference,
        resultCode: 'RedirectShopper',
        merchantReference: payment.reference,
        action: { type: 'redirect', paymentMethodType: 'scheme', ...this.challengeAction(payment.pspReference) },
      },
      notifications: [],
    };
  }

  /** Where the shopper goes for a payment's challenge (GET with `creq` in the query, or a form POSTing it), if it has one. */
  challengeAction(psp: string): { url: string; method: 'GET' | 'POST'; data?: Record<string, string> } | undefined {
    const challenge = this.#challenges.get(psp);
    if (!challenge) return undefined;
    const url = `${this.challengePageBase()}/${encodeURIComponent(psp)}`;
    return challenge.method === 'POST'
      ? { url, method: 'POST', data: { creq: challenge.creq } }
      : { url: `${url}?creq=${challenge.creq}`, method: 'GET' };
  }

  /** What the challenge page shows, if `creq` is the payment's: the payment, and whether it is over. */
  challengePage(psp: string, creq: string | undefined): ChallengeView | undefined {
    const challenge = this.#challenges.get(psp);
    if (!challenge || creq !== challenge.creq) return undefined;
    const { payment } = challenge.pending;
    return {
      merchantAccount: this.merchantAccount,
      currency: payment.currency,
      value: payment.value,
      brand: payment.card.brand,
      last4: payment.card.last4,
      method: challenge.method,
      ...(challenge.redirectResult !== undefined && { returnTo: returnLocation(challenge) }),
    };
  }

  /**
   * The shopper finishes the challenge (`creq` must be the payment's, when given): the issuer's
   * verdict is known, so Adyen authorises (or refuses) the payment now and tells it by notification;
   * the browser goes back to the returnUrl with a redirectResult for /payments/details. Finishing it
   * again changes nothing and goes back to the same place.
   */
  finishChallenge(
    psp: string,
    outcome: ChallengeOutcome,
    creq?: string,
  ): { returnTo: string; notifications: NotificationDraft[] } | undefined {
    const challenge = this.#challenges.get(psp);
    if (!challenge || (creq !== undefined && creq !== challenge.creq)) return undefined;
    if (challenge.redirectResult !== undefined) return { returnTo: returnLocation(challenge), notifications: [] };
    const { pending } = challenge;
    const threeDs = issuerAuthentication(pending.card.brand, 'challenge', outcome);
    let answer: Answer;
    if (pending.payment.cancelled) {
      // Cancelled (by the merchant) while the shopper was away: nothing is authorised.
      pending.payment.resultCode = 'Cancelled';
      pending.payment.threeDSecure = threeDs;
      answer = {
        status: 200,
        body: { pspReference: psp, merchantReference: pending.payment.reference, resultCode: 'Cancelled' },
        notifications: [],
      };
    } else {
      if (challenge.refusedAfterChallenge && authenticated(threeDs)) pending.testOutcome ??= holderNameOutcome('DECLINED');
      answer = this.#authorise(pending, threeDs, true);
    }
    challenge.redirectResult = randomBytes(24).toString('base64url');
    challenge.details = answer.body;
    this.#redirectResults.set(challenge.redirectResult, psp);
    return { returnTo: returnLocation(challenge), notifications: answer.notifications };
  }

  // POST /payments/details: the outcome of a challenge, once per redirectResult
  details(request: Json): Answer {
    const redirectResult = optionalText((request.details as Json | undefined)?.redirectResult);
    const psp = redirectResult === undefined ? undefined : this.#redirectResults.get(redirectResult);
    const challenge = psp === undefined ? undefined : this.#challenges.get(psp);
    if (!challenge?.details) return serviceError(422, '000', 'Invalid redirectResult');
    if (challenge.detailsRead) return serviceError(422, '704', 'request already processed or in progress');
    challenge.detailsRead = true;
    return { status: 200, body: challenge.details, notifications: [] };
  }

  /** The AUTHORISATION notification of a payment, as the fake sent it (or would have, without a notification URL). */
  authorisationNotification(psp: string): NotificationDraft | undefined {
    return this.#authorisations.get(psp);
  }

  /**
   * Decides a payment (after its authentication, if any): the card holder name's test outcome,
   * else authorised, or refused when the authentication failed. Stores the card when asked, and
   * answers as /payments (or, `afterChallenge`, as /payments/details with its threeDS2Result) with
   * the AUTHORISATION notification to send.
   */
  #authorise(pending: PendingAuthorisation, threeDs: FakeThreeDSecure | undefined, afterChallenge: boolean): Answer {
    const { payment, card, storing } = pending;
    const testOutcome = threeDs && !authenticated(threeDs) ? holderNameOutcome('NOT_3D_AUTHENTICATED') : pending.testOutcome;
    payment.resultCode = testOutcome?.resultCode ?? 'Authorised';
    payment.refusalReasonCode = testOutcome?.refusalReasonCode;
    payment.threeDSecure = threeDs;
    const authorised = payment.resultCode === 'Authorised';
    if (authorised && !payment.manualCapture) payment.captured = payment.value;
    let stored = pending.stored;
    if (authorised && pending.toStore) {
      stored = this.#store(payment.shopperReference!, pending.toStore, payment.recurringProcessingModel!);
      payment.storedPaymentMethodId = stored.id;
    }

    const amount = { currency: payment.currency, value: payment.value };
    const common = { pspReference: payment.pspReference, merchantReference: payment.reference, amount };
    if (payment.resultCode === 'Received') return { status: 200, body: { ...common, resultCode: 'Received' }, notifications: [] };
    const threeDsData = threeDs ? threeDsAdditionalData(threeDs) : {};
    const threeDsResult = threeDs && afterChallenge ? { threeDS2Result: threeDS2Result(threeDs) } : {};
    const recurring: Record<string, string> = stored
      ? { 'recurring.recurringDetailReference': stored.id, 'recurring.shopperReference': stored.shopperReference }
      : {};
    const notification: NotificationDraft = {
      eventCode: 'AUTHORISATION',
      success: authorised,
      ...common,
      paymentMethod: card.brand,
      reason: authorised
        ? `${randomBytes(3).toString('hex')}:${card.last4}:${card.expiryMonth}/${card.expiryYear}`
        : testOutcome!.refusalReason,
      additionalData: { ...threeDsData, ...(authorised && recurring) },
    };
    this.#authorisations.set(payment.pspReference, notification);
    if (authorised) {
      const tokenisation: Record<string, string> =
        storing && stored
          ? { 'tokenization.storedPaymentMethodId': stored.id, 'tokenization.shopperReference': stored.shopperReference }
          : {};
      return {
        status: 200,
        body: {
          ...common,
          resultCode: 'Authorised',
          paymentMethod: { type: 'scheme', brand: card.brand },
          additionalData: { ...threeDsData, ...tokenisation },
          ...threeDsResult,
        },
        notifications: [notification],
      };
    }
    const raw = card.holderName?.split(' : ').slice(1).join(' : ');
    return {
      status: 200,
      body: {
        ...common,
        resultCode: payment.resultCode,
        refusalReason: testOutcome!.refusalReason,
        refusalReasonCode: testOutcome!.refusalReasonCode,
        additionalData: { ...threeDsData, refusalReasonRaw: raw || testOutcome!.refusalReason.toUpperCase() },
        ...threeDsResult,
      },
      notifications: [notification],
    };
  }

  // POST /payments/{pspReference}/captures | cancels | refunds | reversals
  modify(kind: 'capture' | 'cancel' | 'refund' | 'reversal', paymentPspReference: string, request: Json): Answer {
    const payment = this.payments.get(paymentPspReference);
    if (!payment) return serviceError(422, '167', 'Original pspReference required for this operation');
    const amount = request.amount as { currency: string; value: number } | undefined;
    const reference = optionalText(request.reference);
    let problem: string | undefined;
    let action: 'cancel' | 'refund' | undefined;
    switch (kind) {
      case 'capture':
        problem = this.#captureProblem(payment, amount!);
        break;
      case 'cancel':
        problem = cancelProblem(payment);
        break;
      case 'refund':
        problem = refundProblem(payment, amount!);
        break;
      case 'reversal':
        action = cancelProblem(payment) === undefined ? 'cancel' : 'refund';
        problem =
          action === 'cancel'
            ? undefined
            : refundProblem(payment, { currency: payment.currency, value: payment.captured - payment.refunded });
        break;
    }
    if (this.#failNext.delete(kind)) problem ??= 'Modification failed';
    const value = kind === 'cancel' ? undefined : kind === 'reversal' ? payment.value : amount!.value;
    const modification: FakeAdyenModification = {
      kind,
      pspReference: pspReference(),
      reference,
      value,
      status: problem ? 'failed' : 'succeeded',
      action,
    };
    payment.modifications.push(modification);
    const later: NotificationDraft[] = [];
    if (!problem) later.push(...this.#apply(payment, modification));

    const eventCode = { capture: 'CAPTURE', cancel: 'CANCELLATION', refund: 'REFUND', reversal: 'CANCEL_OR_REFUND' }[kind];
    const notification: NotificationDraft = {
      eventCode,
      success: !problem,
      pspReference: modification.pspReference,
      originalReference: payment.pspReference,
      merchantReference: reference ?? payment.reference,
      amount: { currency: payment.currency, value: value ?? payment.value },
      ...(problem && { reason: problem }),
      ...(action && { additionalData: { 'modification.action': action } }),
    };
    const body: Json = {
      merchantAccount: this.merchantAccount,
      paymentPspReference: payment.pspReference,
      pspReference: modification.pspReference,
      ...(reference !== undefined && { reference }),
      ...(amount && { amount }),
    };
    return received(body, [notification, ...later]);
  }

  // POST /cancels: a technical cancel, by the payment's own reference
  cancelByReference(request: Json): Answer {
    const paymentReference = String(request.paymentReference);
    const reference = optionalText(request.reference);
    const payment = [...this.payments.values()].reverse().find((p) => p.reference === paymentReference && p.resultCode !== 'Refused');
    let problem = payment ? cancelProblem(payment) : 'Original payment not found';
    if (this.#failNext.delete('technicalCancel')) problem ??= 'Modification failed';
    const modification: FakeAdyenModification = {
      kind: 'technicalCancel',
      pspReference: pspReference(),
      reference,
      status: problem ? 'failed' : 'succeeded',
    };
    if (payment) {
      payment.modifications.push(modification);
      if (!problem) payment.cancelled = true;
    }
    const notification: NotificationDraft = {
      eventCode: 'TECHNICAL_CANCEL',
      success: !problem,
      pspReference: modification.pspReference,
      ...(payment && { originalReference: payment.pspReference }),
      merchantReference: paymentReference,
      amount: payment ? { currency: payment.currency, value: payment.value } : { currency: 'EUR', value: 0 },
      ...(problem && { reason: problem }),
    };
    const body: Json = {
      merchantAccount: this.merchantAccount,
      paymentReference,
      pspReference: modification.pspReference,
      ...(reference !== undefined && { reference }),
    };
    return received(body, [notification]);
  }

  // GET /storedPaymentMethods
  listStored(shopperReference: string | undefined): Answer {
    const methods = [...this.stored.values()].filter((m) => !m.deleted && m.shopperReference === shopperReference);
    return {
      status: 200,
      body: {
        merchantAccount: this.merchantAccount,
        ...(shopperReference !== undefined && { shopperReference }),
        storedPaymentMethods: methods.map((m) => ({
          id: m.id,
          type: 'scheme',
          brand: m.brand,
          name: m.brand === 'mc' ? 'MasterCard' : m.brand === 'amex' ? 'American Express' : 'VISA',
          // Newer copies of the v71 description have cardBin; the npm copy does not (docs/providers/adyen.md).
          cardBin: m.bin,
          lastFour: m.last4,
          expiryMonth: m.expiryMonth,
          expiryYear: m.expiryYear.slice(-2),
          ...(m.holderName !== undefined && { holderName: m.holderName }),
          shopperReference: m.shopperReference,
          supportedRecurringProcessingModels: [m.recurringProcessingModel],
        })),
      },
      notifications: [],
    };
  }

  // DELETE /storedPaymentMethods/{id}
  deleteStored(id: string, shopperReference: string | undefined): Answer {
    const method = this.stored.get(id);
    if (!method || method.deleted || method.shopperReference !== shopperReference) return serviceError(422, ...CONTRACT_NOT_FOUND);
    method.deleted = true;
    return { status: 204, notifications: [] };
  }

  #store(
    shopperReference: string,
    card: { number: string; expiryMonth: string; expiryYear: string; holderName?: string },
    recurringProcessingModel: string,
  ): FakeStoredPaymentMethod {
    const print = fingerprint(card.number);
    const known = [...this.stored.values()].find((m) => !m.deleted && m.shopperReference === shopperReference && m.fingerprint === print);
    if (known) return known;
    const method: FakeStoredPaymentMethod = {
      id: pspReference(),
      shopperReference,
      brand: brandOf(card.number),
      bin: card.number.slice(0, 6),
      last4: card.number.slice(-4),
      expiryMonth: card.expiryMonth.padStart(2, '0'),
      expiryYear: card.expiryYear,
      holderName: card.holderName,
      recurringProcessingModel,
      deleted: false,
      fingerprint: print,
    };
    this.stored.set(method.id, method);
    return method;
  }

  #captureProblem(payment: FakeAdyenPayment, amount: { currency: string; value: number }): string | undefined {
    if (payment.resultCode !== 'Authorised' || payment.cancelled) return 'Payment is not authorised';
    if (!payment.manualCapture) return 'Payment was captured automatically';
    // Without Adyen's "multiple partial captures" (asked of its support), the first capture releases the rest.
    if (payment.modifications.some((m) => m.kind === 'capture' && m.status === 'succeeded')) return 'Payment already captured';
    if (amount.currency !== payment.currency) return 'Modification in different currency than authorisation';
    if (amount.value <= 0 || amount.value > payment.value) return 'Insufficient balance on payment';
    return undefined;
  }

  /** Applies a successful modification; answers the notifications that report its later failure (test names). */
  #apply(payment: FakeAdyenPayment, modification: FakeAdyenModification): NotificationDraft[] {
    const value = modification.value ?? 0;
    const failing = (eventCode: string, undo: () => void): NotificationDraft[] => {
      undo();
      const amount = { currency: payment.currency, value };
      return [
        {
          eventCode,
          success: true,
          pspReference: modification.pspReference,
          originalReference: payment.pspReference,
          merchantReference: modification.reference ?? payment.reference,
          amount,
          reason: 'Simulated failure',
        },
      ];
    };
    const name = payment.card.holderName;
    switch (modification.kind === 'reversal' ? modification.action : modification.kind) {
      case 'capture':
        payment.captured += value;
        return name === FAILING_MODIFICATION_NAMES.capture ? failing('CAPTURE_FAILED', () => (payment.captured -= value)) : [];
      case 'refund': {
        const refunded = modification.kind === 'reversal' ? payment.captured - payment.refunded : value;
        payment.refunded += refunded;
        return name === FAILING_MODIFICATION_NAMES.refund ? failing('REFUND_FAILED', () => (payment.refunded -= refunded)) : [];
      }
      default:
        payment.cancelled = true;
        return [];
    }
  }
}

function cancelProblem(payment: FakeAdyenPayment): string | undefined {
  if (payment.cancelled) return 'Payment already cancelled';
  // A payment waiting for the shopper's challenge can be cancelled too: nothing is authorised then.
  if (payment.resultCode !== 'Authorised' && payment.resultCode !== 'Received' && payment.resultCode !== 'RedirectShopper') {
    return 'Payment is not authorised';
  }
  if (payment.captured > 0) return 'Payment already captured';
  return undefined;
}

function refundProblem(payment: FakeAdyenPayment, amount: { currency: string; value: number }): string | undefined {
  if (amount.currency !== payment.currency) return 'Modification in different currency than authorisation';
  if (amount.value <= 0 || amount.value > payment.captured - payment.refunded) return 'Insufficient in-process balance on payment';
  return undefined;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function fingerprint(number: string): string {
  return createHash('sha256').update(number).digest('hex');
}
