import Stripe from 'stripe';
import type { NotificationFormat, NotificationRead, NotificationRequest, ProviderNotification } from '../provider-type.js';
import { codeForError, failureFor } from './codes.js';
import { fromStripeAmount } from './currencies.js';
import { threeDsOfIntent } from './three-d-secure.js';
import { STRIPE_API_VERSION } from './transformers.js';

/**
 * Stripe events delivered to `POST /provider/{providerId}/notification`: the `Stripe-Signature`
 * header is checked over the raw bytes with the endpoint's `WebhookSecret` (stripe-node's
 * constructEvent), within 300 seconds of the signed timestamp, and the event's id is the
 * notification's id (Stripe delivers an event again with the same id).
 */

/** How far the signed timestamp may be from the gateway's clock (Stripe's own default). */
export const TOLERANCE_SECONDS = 300;

// constructEvent needs no key; the instance only carries the library's webhook helpers.
const { webhooks } = new Stripe('webhooks-only', { apiVersion: STRIPE_API_VERSION });

type Json = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The object's amount `field` in ISO minor units, with its currency (ProviderNotification's `amount`). */
function money(object: Json, field: string): { amount?: bigint; currency?: string } {
  const currency = text(object.currency)?.toUpperCase();
  const value = object[field];
  if (!currency || typeof value !== 'number') return {};
  const amount = fromStripeAmount(currency, value);
  return { currency, ...(amount !== undefined && { amount }) };
}

/** A payment intent event's intent: its id, the attempt key, and how its payer was authenticated when the object tells. */
function intentOf(object: Json) {
  const metadata = (object.metadata as Json | null | undefined) ?? {};
  const threeDs = threeDsOfIntent(object as Parameters<typeof threeDsOfIntent>[0]);
  return { providerChargeId: text(object.id), reference: text(metadata.attempt), ...(threeDs && { threeDs }) };
}

/**
 * One Stripe event in the gateway's terms. Payment intent events tell a payment's outcome
 * (`authorisation`), also of one that waited for 3-D Secure: `requires_action` is one not
 * authorised yet (no failure), a `succeeded` sale one authorised and captured at once.
 */
export function notificationOf(event: { id: string; type: string; data: { object: Json } }): ProviderNotification {
  const object = event.data.object;
  const metadata = (object.metadata as Json | null | undefined) ?? {};
  const base = { id: event.id, success: true };
  switch (event.type) {
    case 'payment_intent.requires_action':
      return { ...base, success: false, event: 'authorisation', ...intentOf(object), ...money(object, 'amount') };
    case 'payment_intent.amount_capturable_updated':
      return { ...base, event: 'authorisation', ...intentOf(object), ...money(object, 'amount_capturable') };
    case 'payment_intent.succeeded':
      // An authorisation's later capture, or a sale (automatic capture) paid at once.
      return {
        ...base,
        event: object.capture_method === 'manual' ? 'capture' : 'authorisation',
        ...intentOf(object),
        ...money(object, 'amount_received'),
      };
    case 'payment_intent.payment_failed': {
      const error = (object.last_payment_error as Json | null) ?? {};
      const failure = failureFor(
        codeForError({ rawType: text(error.type), code: text(error.code), decline_code: text(error.decline_code) }),
      );
      return { ...base, success: false, event: 'authorisation', ...intentOf(object), failure, ...money(object, 'amount') };
    }
    case 'payment_intent.canceled':
      return { ...base, event: 'void', providerChargeId: text(object.id), reference: text(metadata.attempt) };
    case 'charge.captured':
      return {
        ...base,
        event: 'capture',
        providerChargeId: text(object.payment_intent),
        providerReference: text(object.id),
        ...money(object, 'amount_captured'),
      };
    case 'charge.refunded':
      // amount_refunded counts every refund of the charge: the refund.* events tell each one.
      return { ...base, event: 'refund', providerChargeId: text(object.payment_intent), providerReference: text(object.id) };
    case 'refund.created':
    case 'refund.updated':
    case 'charge.refund.updated': {
      const status = text(object.status);
      const settled = status === 'succeeded' || status === 'failed' || status === 'canceled';
      return {
        ...base,
        event: settled ? 'refund' : 'other',
        success: status !== 'failed' && status !== 'canceled',
        providerChargeId: text(object.payment_intent),
        providerReference: text(object.id),
        reference: text(metadata.refund),
        ...money(object, 'amount'),
        ...(status === 'failed' || status === 'canceled' ? { failure: failureFor('REFUND_FAILED') } : {}),
      };
    }
    default:
      return { ...base, event: 'other', ...(object.object === 'payment_intent' ? { providerChargeId: text(object.id) } : {}) };
  }
}

function signedAt(header: string): number | undefined {
  const t = header.split(',').find((part) => part.startsWith('t='));
  const seconds = t === undefined ? NaN : Number(t.slice(2));
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

function read(req: NotificationRequest): NotificationRead {
  const secret = req.parameters.WebhookSecret;
  if (!secret) return { ok: false, reason: 'no WebhookSecret is set for this provider' };
  const header = req.headers['stripe-signature'];
  if (!header) return { ok: false, reason: 'no Stripe-Signature header' };
  const now = req.now.getTime();
  let event: Stripe.Event;
  try {
    event = webhooks.constructEvent(req.rawBody, header, secret, TOLERANCE_SECONDS, undefined, now);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) return { ok: false, reason: 'not a Stripe event' };
    const at = signedAt(header);
    const stale = at !== undefined && now / 1000 - at > TOLERANCE_SECONDS;
    return { ok: false, reason: stale ? `signed more than ${TOLERANCE_SECONDS} s ago` : 'the signature does not match the body' };
  }
  const at = signedAt(header);
  if (at !== undefined && at - now / 1000 > TOLERANCE_SECONDS)
    return { ok: false, reason: `signed more than ${TOLERANCE_SECONDS} s ahead` };
  const key = req.parameters.SecretKey;
  if (key !== undefined && event.livemode !== /^(sk|rk)_live_/.test(key))
    return { ok: false, reason: 'an event of the other mode (live or test)' };
  const object = event.data?.object;
  // A signed body is still only as well-formed as its sender made it: null or an array is no object.
  if (typeof event.id !== 'string' || typeof object !== 'object' || object === null || Array.isArray(object))
    return { ok: false, reason: 'not a Stripe event' };
  return { ok: true, notifications: [notificationOf(event as unknown as { id: string; type: string; data: { object: Json } })] };
}

export const STRIPE_NOTIFICATIONS: NotificationFormat = {
  read,
  accepted: { status: 200, contentType: 'application/json', body: '{"received":true}' },
};
