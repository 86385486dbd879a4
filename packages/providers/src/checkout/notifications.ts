import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationEvent, NotificationFormat, NotificationRead, ProviderNotification } from '../provider-type.js';
import { declineFailure, modificationFailure } from './codes.js';
import { fromCheckoutUnits } from './currencies.js';
import { isObject, type Json } from './transformers.js';

/**
 * Checkout.com's webhooks: one event per request, JSON `{id: "evt_…", type, data: {id: "pay_…",
 * action_id, reference, amount, currency, response_code…}}`, signed in `Cko-Signature` with the
 * hex HMAC-SHA256 of the raw body under the endpoint's secret key (the provider's WebhookSecret).
 * Without a WebhookSecret nothing is verified, so nothing is taken.
 */

/** What each event type reports; `failed` events report a failure. */
const EVENTS: Readonly<Record<string, { event: NotificationEvent; failed?: boolean }>> = {
  payment_approved: { event: 'authorisation' },
  payment_declined: { event: 'authorisation', failed: true },
  payment_captured: { event: 'capture' },
  payment_capture_declined: { event: 'capture', failed: true },
  payment_voided: { event: 'void' },
  payment_void_declined: { event: 'void', failed: true },
  payment_refunded: { event: 'refund' },
  payment_refund_declined: { event: 'refund', failed: true },
};

/** The signature of a raw body under a secret: what Checkout.com sends in Cko-Signature. */
export function checkoutSignature(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

function signedBy(rawBody: Buffer, secret: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(checkoutSignature(rawBody, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

const optionalText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function toNotification(id: string, type: string, data: Json): ProviderNotification {
  const { event, failed } = EVENTS[type] ?? { event: 'other' as const };
  const currency = optionalText(data.currency);
  const amount =
    currency !== undefined && Number.isSafeInteger(data.amount) ? fromCheckoutUnits(currency, BigInt(data.amount as number)) : undefined;
  const authorisation = event === 'authorisation';
  const actionId = optionalText(data.action_id);
  const reference = optionalText(data.reference);
  const paymentId = optionalText(data.id);
  const responseCode = optionalText(data.response_code);
  return {
    id,
    event,
    success: !failed,
    ...(paymentId && { providerChargeId: paymentId }),
    ...(reference && { reference }),
    ...(!authorisation && actionId && { providerReference: actionId }),
    ...(currency && { currency }),
    ...(amount !== undefined && { amount }),
    ...(failed && { failure: authorisation ? declineFailure(responseCode) : modificationFailure(type) }),
  };
}

export const CHECKOUT_NOTIFICATIONS: NotificationFormat = {
  read({ rawBody, headers, parameters }): NotificationRead {
    const secret = parameters.WebhookSecret;
    if (!secret) return { ok: false, reason: 'the provider has no WebhookSecret' };
    if (!signedBy(rawBody, secret, headers['cko-signature'])) return { ok: false, reason: 'no valid Cko-Signature' };
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, reason: 'not JSON' };
    }
    if (!isObject(body) || typeof body.id !== 'string' || typeof body.type !== 'string' || !isObject(body.data)) {
      return { ok: false, reason: 'not a Checkout.com event' };
    }
    return { ok: true, notifications: [toNotification(body.id, body.type, body.data)] };
  },
  accepted: { status: 200, contentType: 'application/json', body: '{}' },
};
