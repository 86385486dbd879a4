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
  type TestOutcome,
} from './test-cards.js';

/**
 * The fake Adyen's payments, modifications and stored payment methods, and the rules Adyen's
 * Checkout API v71 applies to them. Requests reach it already authenticated, checked against the
 * API description and for their merchant account (server.ts). Money is Adyen's minor units.
 *
 * Modifications (captures, cancels, refunds, reversals, technical cancels) answer "received" as
 * Adyen does; whether they succeed is decided at once and told in the notification that follows.
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
  threeDSecure: boolean;
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

export class AdyenLedger {
  readonly payments = new Map<string, FakeAdyenPayment>();
  readonly stored = new Map<string, FakeStoredPaymentMethod>();
  rawCardsAllowed = true;
  readonly #failNext = new Set<ModificationKind>();

  readonly #currencies: ReadonlySet<string>;

  constructor(
    private readonly merchantAccount: string,
    currencies: readonly string[] = [...CURRENCIES.keys()],
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

    let card: { bin: string; last4: string; brand: string; holderName?: string; expiryMonth: string; expiryYear: string };
    let testOutcome: TestOutcome | undefined;
    let threeDSecure: boolean;
    let stored: FakeStoredPaymentMethod | undefined;
    let toStore: { number: string; expiryMonth: string; expiryYear: string; holderName?: string } | undefined;
    const cvc = optionalText(method.cvc);
    if (storedId) {
      stored = this.stored.get(storedId);
      if (!stored || stored.deleted || stored.shopperReference !== shopperReference) return serviceError(422, ...CONTRACT_NOT_FOUND);
      card = stored;
      threeDSecure = stored.threeDSecure;
      const testCard = TEST_CARDS.find((c) => fingerprint(c.number) === stored!.fingerprint);
      if (cvc !== undefined && cvc !== testCard?.cvc) testOutcome = holderNameOutcome('DECLINED');
    } else {
      if (!this.rawCardsAllowed) return serviceError(403, '010', 'Not allowed', 'security');
      const number = String(method.number ?? '');
      if (!luhnValid(number)) return serviceError(422, '101', 'Invalid card number');
      const expiryMonth = String(method.expiryMonth ?? '');
      const expiryYear = String(method.expiryYear ?? '');
      if (!/^(0?[1-9]|1[0-2])$/.test(expiryMonth) || !/^[0-9]{4}$/.test(expiryYear)) return serviceError(422, '129', 'Expiry Date Invalid');
      if (cvc !== undefined && !/^[0-9]{3,4}$/.test(cvc)) return serviceError(422, '103', 'CVC is not the right length');
      const testCard = TEST_CARDS.find((c) => c.number === number);
      const holderName = optionalText(method.holderName);
      card = { bin: number.slice(0, 6), last4: number.slice(-4), brand: brandOf(number), holderName, expiryMonth, expiryYear };
      threeDSecure = testCard?.threeDSecure ?? false;
      const expiryMatches = expiryMonth.padStart(2, '0') === TEST_EXPIRY.month && expiryYear === TEST_EXPIRY.year;
      if (!testCard || !expiryMatches || (cvc !== undefined && cvc !== testCard.cvc)) testOutcome = holderNameOutcome('DECLINED');
      if (storing) toStore = { number, expiryMonth, expiryYear, holderName };
    }
    testOutcome ??= holderNameOutcome(card.holderName);

    if (!testOutcome && threeDSecure && shopperInteraction === 'Ecommerce') {
      return {
        status: 200,
        body: {
          resultCode: 'RedirectShopper',
          merchantReference: reference,
          action: {
            type: 'redirect',
            method: 'GET',
            paymentMethodType: 'scheme',
            url: `https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?ref=${encodeURIComponent(reference)}`,
          },
        },
        notifications: [],
      };
    }
    if (toStore && !testOutcome) stored = this.#store(shopperReference!, toStore, recurringProcessingModel!);

    const payment: FakeAdyenPayment = {
      pspReference: pspReference(),
      reference,
      merchantOrderReference: optionalText(request.merchantOrderReference),
      currency: amount.currency,
      value: amount.value,
      resultCode: testOutcome?.resultCode ?? 'Authorised',
      refusalReasonCode: testOutcome?.refusalReasonCode,
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
    if (payment.resultCode === 'Authorised' && !payment.manualCapture) payment.captured = payment.value;
    this.payments.set(payment.pspReference, payment);

    const common = { pspReference: payment.pspReference, merchantReference: reference, amount };
    if (payment.resultCode === 'Received') return { status: 200, body: { ...common, resultCode: 'Received' }, notifications: [] };
    const authorised = payment.resultCode === 'Authorised';
    const tokenisation: Record<string, string> =
      authorised && storing && stored
        ? { 'tokenization.storedPaymentMethodId': stored.id, 'tokenization.shopperReference': stored.shopperReference }
        : {};
    const notification: NotificationDraft = {
      eventCode: 'AUTHORISATION',
      success: authorised,
      ...common,
      paymentMethod: card.brand,
      reason: authorised
        ? `${randomBytes(3).toString('hex')}:${card.last4}:${card.expiryMonth}/${card.expiryYear}`
        : testOutcome!.refusalReason,
      ...(authorised &&
        stored && {
          additionalData: { 'recurring.recurringDetailReference': stored.id, 'recurring.shopperReference': stored.shopperReference },
        }),
    };
    if (authorised) {
      return {
        status: 200,
        body: { ...common, resultCode: 'Authorised', paymentMethod: { type: 'scheme', brand: card.brand }, additionalData: tokenisation },
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
        additionalData: { refusalReasonRaw: raw || testOutcome!.refusalReason.toUpperCase() },
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
      threeDSecure: TEST_CARDS.some((c) => c.number === card.number && c.threeDSecure),
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
  if (payment.resultCode !== 'Authorised' && payment.resultCode !== 'Received') return 'Payment is not authorised';
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
