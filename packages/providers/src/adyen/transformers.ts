import type { AuthoriseRequest, CardDetails, CardSummary } from '../connector.js';
import { fitKey, subCallKeyWithin } from '../idempotency-keys.js';

/**
 * Requests to Adyen's Checkout API v71 and readings of its answers (no I/O). Amounts are already
 * in Adyen's minor units here (currencies.ts).
 */

type Json = Record<string, unknown>;

/**
 * Adyen requires a return URL on /payments even for cards. A payment the payer cannot authenticate
 * (no `AuthoriseRequest.authentication`) carries this one, and nobody is ever redirected to it: a
 * redirect Adyen answers then is cancelled. A payment the payer can authenticate carries the gateway's.
 */
export const RETURN_URL = 'https://localhost/adyen/no-redirect';

/** Adyen's limits: `Idempotency-Key` up to 64 characters, `reference` up to 80. */
const IDEMPOTENCY_KEY_LENGTH = 64;
const REFERENCE_LENGTH = 80;

/** The `Idempotency-Key` of one sub-call of a gateway call (`part` names the sub-call). */
export const subCallKey = subCallKeyWithin(IDEMPOTENCY_KEY_LENGTH);

/** Adyen's `reference` of a payment: the attempt's own key, so a cancel by reference reaches only that attempt. */
export function paymentReference(idempotencyKey: string): string {
  return fitKey(idempotencyKey, REFERENCE_LENGTH);
}

export interface AdyenAmount {
  currency: string;
  /** Adyen's minor units. */
  value: number;
}

export const amountOf = (currency: string, value: bigint): AdyenAmount => ({ currency, value: Number(value) });

/** A stored payment method to charge: Adyen's id, the shopper it was stored for, the CVC if the card holder gave it. */
export interface StoredPayment {
  storedPaymentMethodId: string;
  shopperReference: string;
  cvc?: string;
}

function cardMethod(card: CardDetails): Json {
  return {
    type: 'scheme',
    number: card.number,
    expiryMonth: String(card.expiryMonth).padStart(2, '0'),
    expiryYear: String(card.expiryYear),
    ...(card.cvc !== undefined && { cvc: card.cvc }),
    ...(card.cardholder !== undefined && { holderName: card.cardholder }),
  };
}

/**
 * The /payments body of an authorisation. Always a manual capture: a sale is captured by a second
 * call, so that until then a timeout can be undone by cancelling by reference (connector.ts).
 */
export function paymentRequest(req: AuthoriseRequest, amount: AdyenAmount, merchantAccount: string, stored?: StoredPayment): Json {
  const body: Json = {
    merchantAccount,
    reference: paymentReference(req.idempotencyKey),
    amount,
    returnUrl: RETURN_URL,
    additionalData: { manualCapture: 'true' },
    ...(req.reference !== undefined && { merchantOrderReference: req.reference }),
    ...(req.descriptor !== undefined && { shopperStatement: statementOf(req.descriptor) }),
  };
  if (stored) {
    body.paymentMethod = {
      type: 'scheme',
      storedPaymentMethodId: stored.storedPaymentMethodId,
      ...(stored.cvc !== undefined && { cvc: stored.cvc }),
    };
    body.shopperReference = stored.shopperReference;
    Object.assign(body, interaction(req.recurring === true, stored.cvc !== undefined || req.authentication !== undefined));
  } else if (req.source.type === 'card') {
    body.paymentMethod = cardMethod(req.source.card);
    // A repeat on card details the merchant keeps (the gateway's vault) is merchant-initiated too.
    if (req.recurring) Object.assign(body, interaction(true, false));
  }
  return body;
}

/** Adyen's shopper statement takes 22 characters of a small set (letters, digits, space and . , ' _ - ? + * /). */
function statementOf(descriptor: string): string {
  return descriptor.replace(/[^a-zA-Z0-9 .,'_\-?+*/]/g, ' ').slice(0, 22);
}

/**
 * How the card holder takes part: a merchant-initiated repeat is ContAuth and unscheduled card on
 * file; a payment the card holder makes on a stored card is card on file, Ecommerce when they are
 * at hand (they gave the CVC, or can authenticate with 3-D Secure), ContAuth otherwise.
 */
function interaction(merchantInitiated: boolean, holderPresent: boolean): Json {
  if (merchantInitiated) return { shopperInteraction: 'ContAuth', recurringProcessingModel: 'UnscheduledCardOnFile' };
  return { shopperInteraction: holderPresent ? 'Ecommerce' : 'ContAuth', recurringProcessingModel: 'CardOnFile' };
}

/** The /payments body that stores a card: a zero-amount verification that keeps it for the shopper. */
export function storeRequest(
  card: CardDetails,
  currency: string,
  idempotencyKey: string,
  shopperReference: string,
  merchantAccount: string,
): Json {
  return {
    merchantAccount,
    reference: paymentReference(idempotencyKey),
    amount: { currency, value: 0 },
    returnUrl: RETURN_URL,
    paymentMethod: cardMethod(card),
    shopperReference,
    storePaymentMethod: true,
    shopperInteraction: 'Ecommerce',
    recurringProcessingModel: 'CardOnFile',
  };
}

/** The stored payment method id in a /payments answer that stored a card (newer and older fields). */
export function storedIdOf(answer: Json): string | undefined {
  const data = isObject(answer.additionalData) ? answer.additionalData : {};
  const id = data['tokenization.storedPaymentMethodId'] ?? data['recurring.recurringDetailReference'];
  return typeof id === 'string' ? id : undefined;
}

/** Adyen does not tell a card number's length: the usual one for the brand. */
function lengthOf(brand: unknown): number {
  if (typeof brand !== 'string') return 16;
  if (brand.startsWith('amex')) return 15;
  if (brand.startsWith('diners')) return 14;
  return 16;
}

/** A card from GET /storedPaymentMethods, or undefined when the entry lacks what the gateway needs. */
export function storedCardOf(entry: Json): CardSummary | undefined {
  const { cardBin, lastFour, expiryMonth, expiryYear, holderName, brand } = entry;
  if (typeof cardBin !== 'string' || typeof lastFour !== 'string' || typeof expiryMonth !== 'string' || typeof expiryYear !== 'string') {
    return undefined;
  }
  const month = Number(expiryMonth);
  // The description says two digits ("30"); Adyen's own examples show four.
  const year = expiryYear.length === 2 ? 2000 + Number(expiryYear) : Number(expiryYear);
  if (!Number.isInteger(month) || !Number.isInteger(year)) return undefined;
  return {
    iin: cardBin.slice(0, 6),
    last4: lastFour,
    length: lengthOf(brand),
    expiryMonth: month,
    expiryYear: year,
    ...(typeof holderName === 'string' && { cardholder: holderName }),
  };
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(answer: Json, name: string): string {
  const value = answer[name];
  if (typeof value !== 'string') throw new TypeError(`answer lacks ${name}`);
  return value;
}
