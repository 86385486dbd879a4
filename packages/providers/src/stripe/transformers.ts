import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { AttemptParameters, CardDetails, CardSummary, StoredCard } from '../connector.js';

/** Request and answer mapping between the gateway's connector contract and Stripe's API (2022-11-15). */

/** The Stripe API version the connector speaks: the one of the description the fake validates against. */
export const STRIPE_API_VERSION = '2022-11-15' as const;

const MAX_KEY = 255;

/**
 * The idempotency key of one sub-call of a gateway call (`<key>:pi`), within Stripe's 255
 * characters: a longer gateway key is replaced by its SHA-256, the same for every retry.
 */
export function subKey(key: string, part: string): string {
  const whole = `${key}:${part}`;
  return whole.length <= MAX_KEY ? whole : `${createHash('sha256').update(key).digest('base64url')}:${part}`;
}

export function paymentMethodParams(card: CardDetails): Stripe.PaymentMethodCreateParams {
  return {
    type: 'card',
    card: { number: card.number, exp_month: card.expiryMonth, exp_year: card.expiryYear, ...(card.cvc ? { cvc: card.cvc } : {}) },
    ...(card.cardholder ? { billing_details: { name: card.cardholder } } : {}),
  };
}

/** The attempt key as a payment intent's `metadata.attempt` (Stripe takes 500 characters), which `reverse` searches by. */
export function attemptMetadata(idempotencyKey: string): string {
  return idempotencyKey.slice(0, 500);
}

/** What pays for a payment intent: ids the connector keeps with the attempt (never card data). */
export interface IntentSource {
  paymentMethod: string;
  /** The customer the payment method is attached to (stored cards). */
  customer?: string;
  /** A cvc_update token for a stored card charged with its CVC. */
  cvcToken?: string;
}

/**
 * A payer who can be sent to the card's issuer (3-D Secure): the intent is confirmed with the
 * gateway's return URL and `request_three_d_secure`, so that a challenge is a redirect
 * (`redirect_to_url`), never `use_stripe_sdk`, which only Stripe.js can finish.
 */
export interface IntentAuthentication {
  returnUrl: string;
  request: 'automatic' | 'any';
}

/**
 * What `keep` stores of an attempt so that `reverse` can send the same payment intent again: the
 * source's ids and the authentication's return URL (never card data).
 */
export function keptIntent(source: IntentSource, authentication?: IntentAuthentication): Record<string, string> {
  const kept = { ...source, returnUrl: authentication?.returnUrl, threeDsRequest: authentication?.request };
  return Object.fromEntries(Object.entries(kept).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The source and authentication an attempt kept (`keptIntent`), or undefined when it kept no payment method. */
export function intentFromKept(
  kept: Record<string, string> | undefined,
): { source: IntentSource; authentication?: IntentAuthentication } | undefined {
  if (!kept?.paymentMethod) return undefined;
  const { paymentMethod, customer, cvcToken, returnUrl, threeDsRequest } = kept;
  return {
    source: { paymentMethod, customer, cvcToken },
    ...(returnUrl && { authentication: { returnUrl, request: threeDsRequest === 'any' ? 'any' : 'automatic' } }),
  };
}

/** Characters Stripe refuses in a statement descriptor. */
const DESCRIPTOR_REFUSED = /[<>\\'"*]/g;

/**
 * The suffix of the card statement descriptor: Stripe allows 22 characters (with the account's
 * prefix: longer ones are cut), not `< > \ ' " *`, and at least one letter.
 */
export function statementSuffix(descriptor: string | undefined): string | undefined {
  const suffix = descriptor?.replace(DESCRIPTOR_REFUSED, '').trim().slice(0, 22).trim();
  return suffix && /[A-Za-z]/.test(suffix) ? suffix : undefined;
}

/**
 * A confirmed payment intent for an attempt. Built only from the attempt's stored parameters and
 * kept ids, so that `reverse` can send exactly the same request again under the same key. With an
 * authentication, the answer's latest charge is expanded: it tells how the payer was authenticated.
 */
export function paymentIntentParams(
  attempt: Pick<AttemptParameters, 'idempotencyKey' | 'currency' | 'capture' | 'recurring' | 'reference' | 'descriptor'>,
  stripeAmount: bigint,
  source: IntentSource,
  authentication?: IntentAuthentication,
): Stripe.PaymentIntentCreateParams {
  const { reference, recurring } = attempt;
  const suffix = statementSuffix(attempt.descriptor);
  const card = {
    ...(source.cvcToken && { cvc_token: source.cvcToken }),
    ...(authentication && { request_three_d_secure: authentication.request }),
  };
  return {
    amount: Number(stripeAmount),
    currency: attempt.currency.toLowerCase(),
    payment_method: source.paymentMethod,
    ...(source.customer ? { customer: source.customer } : {}),
    confirm: true,
    capture_method: attempt.capture ? 'automatic' : 'manual',
    payment_method_types: ['card'],
    // A merchant-initiated repeat: the customer is not there to authenticate.
    ...(recurring ? { off_session: true } : {}),
    // A customer-initiated charge of a stored card sets it up for the merchant-initiated ones to come.
    ...(!recurring && source.customer ? { setup_future_usage: 'off_session' as const } : {}),
    ...(Object.keys(card).length > 0 && { payment_method_options: { card } }),
    ...(authentication && { return_url: authentication.returnUrl, expand: ['latest_charge'] }),
    metadata: { attempt: attemptMetadata(attempt.idempotencyKey), ...(reference ? { reference: reference.slice(0, 500) } : {}) },
    ...(reference ? { description: reference.slice(0, 1000) } : {}),
    ...(suffix ? { statement_descriptor_suffix: suffix } : {}),
  };
}

/** Usual number lengths by brand, for cards Stripe tells only the last four digits of. */
const LENGTHS: Record<string, number> = { amex: 15, diners: 14 };

/**
 * What a Stripe payment method tells of its card. Stripe never answers the IIN or the number's
 * length: they come from the number when the gateway had it; otherwise the IIN is empty and the
 * length the brand's usual one.
 */
export function cardSummary(pm: Stripe.PaymentMethod, number?: string): CardSummary {
  const card = pm.card;
  if (!card) throw new TypeError('not a card payment method');
  return {
    iin: number?.slice(0, 6) ?? '',
    last4: card.last4,
    length: number?.length ?? LENGTHS[card.brand] ?? 16,
    expiryMonth: card.exp_month,
    expiryYear: card.exp_year,
    ...(pm.billing_details.name ? { cardholder: pm.billing_details.name } : {}),
  };
}

export function storedCard(pm: Stripe.PaymentMethod, customer: string, number?: string): StoredCard {
  return { providerToken: pm.id, providerData: { customer }, card: cardSummary(pm, number) };
}
