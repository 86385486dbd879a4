import type { AuthoriseRequest, CardDetails, CardSummary, PaymentSource, StoreCardRequest, StoredCard } from '../connector.js';
import { fitKey, subCallKeyWithin } from '../idempotency-keys.js';

/**
 * Requests to Checkout.com's payments API and readings of its answers (no I/O). Amounts are
 * already in Checkout.com's minor units here (currencies.ts).
 */

export type Json = Record<string, unknown>;

/** Checkout.com's limits: `reference` up to 50 characters; the idempotency key is held to 64 here. */
const REFERENCE_LENGTH = 50;
const IDEMPOTENCY_KEY_LENGTH = 64;
const DESCRIPTION_LENGTH = 100;

/** The `Cko-Idempotency-Key` of one sub-call of a gateway call (`part` names the sub-call). */
export const subCallKey = subCallKeyWithin(IDEMPOTENCY_KEY_LENGTH);

/**
 * Checkout.com's `reference` of a payment or action: the attempt's own key, so that a payment whose
 * answer was lost can be found by it (GET /payments?reference=) and only that attempt's.
 */
export function paymentReference(idempotencyKey: string): string {
  return fitKey(idempotencyKey, REFERENCE_LENGTH);
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(answer: Json, name: string): string {
  const value = answer[name];
  if (typeof value !== 'string' || value === '') throw new TypeError(`answer lacks ${name}`);
  return value;
}

function cardSource(card: CardDetails): Json {
  return {
    type: 'card',
    number: card.number,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    ...(card.cvc !== undefined && { cvv: card.cvc }),
    ...(card.cardholder !== undefined && { name: card.cardholder }),
  };
}

/** A card the gateway charges: details, or a stored instrument (`src_…`) with its CVC when the payer gave it. */
export function sourceOf(source: Extract<PaymentSource, { type: 'card' | 'stored_card' }>): Json {
  if (source.type === 'card') return cardSource(source.card);
  return { type: 'id', id: source.providerToken, ...(source.cvc !== undefined && { cvv: source.cvc }) };
}

/**
 * The POST /payments body of an authorisation. Always authorisation only (`capture: false`): a sale
 * is captured by a second call whose action id its notification names (connector.ts). A repeat on a
 * stored card is merchant-initiated, linked to the payment that stored it.
 */
export function paymentRequest(req: AuthoriseRequest, amount: number, processingChannelId: string): Json {
  const { source } = req;
  const stored = source.type === 'stored_card';
  const recurring = stored && req.recurring === true;
  const previous = stored ? source.providerData?.paymentId : undefined;
  return {
    source: sourceOf(source as Extract<PaymentSource, { type: 'card' | 'stored_card' }>),
    amount,
    currency: req.currency,
    capture: false,
    processing_channel_id: processingChannelId,
    reference: paymentReference(req.idempotencyKey),
    payment_type: recurring ? 'Unscheduled' : 'Regular',
    ...(recurring && { merchant_initiated: true }),
    ...(recurring && previous !== undefined && { previous_payment_id: previous }),
    ...(req.reference !== undefined && { description: req.reference.slice(0, DESCRIPTION_LENGTH) }),
    ...(req.descriptor !== undefined && { billing_descriptor: descriptorOf(req.descriptor) }),
  };
}

/** The statement descriptor: Checkout.com takes a name of up to 25 characters and a city of up to 13. */
function descriptorOf(descriptor: string): Json {
  return { name: descriptor.slice(0, 25), city: 'Online' };
}

/** What a card is stored from: its details, or a single-use token of Checkout.com's Frames (`tok_…`). */
export function storeSourceOf(source: StoreCardRequest['source']): Json {
  return source.type === 'card' ? cardSource(source.card) : { type: 'token', token: source.token };
}

/** The zero-amount verification that stores a card (or a single-use token of Checkout.com's Frames) as an instrument. */
export function storeRequest(source: Json, idempotencyKey: string, currency: string, processingChannelId: string): Json {
  return {
    source,
    amount: 0,
    currency,
    capture: false,
    processing_channel_id: processingChannelId,
    reference: paymentReference(idempotencyKey),
    payment_type: 'Unscheduled',
  };
}

const CARD_LENGTHS: Readonly<Record<string, number>> = { amex: 15, 'american express': 15, diners: 14, 'diners club international': 14 };

/** What Checkout.com tells of a card (a payment's `source` or an instrument): never the full number. */
export function cardSummaryOf(card: Json, length?: number): CardSummary | undefined {
  const { bin, last4, expiry_month: month, expiry_year: year, name, scheme } = card;
  if (typeof last4 !== 'string' || typeof month !== 'number' || typeof year !== 'number') return undefined;
  return {
    iin: typeof bin === 'string' ? bin.slice(0, 6) : '',
    last4,
    length: length ?? CARD_LENGTHS[String(scheme).toLowerCase()] ?? 16,
    expiryMonth: month,
    expiryYear: year,
    ...(typeof name === 'string' && name !== '' && { cardholder: name }),
  };
}

/** A stored instrument as the gateway keeps it: the card's length and the verifying payment (for merchant-initiated repeats). */
export function storedCardOf(instrumentId: string, card: CardSummary, paymentId: string): StoredCard {
  return { providerToken: instrumentId, providerData: { paymentId, cardLength: String(card.length) }, card };
}
