import HmacValidatorExport from '@adyen/api-library/lib/src/utils/hmacValidator.js';
import type { NotificationEvent, NotificationFormat, NotificationRead, ProviderNotification } from '../provider-type.js';
import { modificationFailure, refusalByReason } from './codes.js';
import { fromAdyenUnits } from './currencies.js';
import { threeDsOf } from './three-d-secure.js';
import { isObject } from './transformers.js';

/**
 * Adyen's standard notifications: JSON `{live, notificationItems: [{NotificationRequestItem}]}`.
 * Every item must carry a good HMAC signature (`additionalData.hmacSignature`, checked with Adyen's
 * own library and the provider's HmacKey) and the provider's merchant account; one item that does
 * not makes the whole request unverified, so nothing of it changes anything. Adyen's optional
 * basic authentication is not used: the signature is what proves the sender.
 */

// The library is CommonJS compiled from TypeScript: some loaders hand its default export over wrapped once more.
const HmacValidator: typeof HmacValidatorExport =
  (HmacValidatorExport as unknown as { default?: typeof HmacValidatorExport }).default ?? HmacValidatorExport;
const validator = new HmacValidator();

type LibraryItem = Parameters<HmacValidatorExport['validateHMAC']>[0];

interface Item {
  pspReference: string;
  originalReference?: string;
  merchantReference: string;
  merchantAccountCode: string;
  eventCode: string;
  success: 'true' | 'false';
  amount: { currency: string; value: number };
  additionalData?: Record<string, unknown>;
  reason?: string;
}

/** What each eventCode reports; a `failed` event reports a failure whatever its `success` says. */
const EVENTS: Readonly<Record<string, { event: NotificationEvent; failed?: boolean }>> = {
  AUTHORISATION: { event: 'authorisation' },
  CAPTURE: { event: 'capture' },
  CAPTURE_FAILED: { event: 'capture', failed: true },
  CANCELLATION: { event: 'void' },
  TECHNICAL_CANCEL: { event: 'void' },
  REFUND: { event: 'refund' },
  REFUND_FAILED: { event: 'refund', failed: true },
  REFUNDED_REVERSED: { event: 'refund', failed: true },
};

function readItem(value: unknown): Item | undefined {
  if (!isObject(value)) return undefined;
  const { pspReference, merchantReference, merchantAccountCode, eventCode, success, amount, originalReference, additionalData } = value;
  const strings = [pspReference, merchantReference, merchantAccountCode, eventCode].every((s) => typeof s === 'string');
  const goodAmount = isObject(amount) && typeof amount.currency === 'string' && Number.isSafeInteger(amount.value);
  const optional =
    (originalReference === undefined || typeof originalReference === 'string') &&
    (additionalData === undefined || isObject(additionalData));
  return strings && goodAmount && optional && (success === 'true' || success === 'false') ? (value as unknown as Item) : undefined;
}

function eventOf(item: Item): { event: NotificationEvent; failed?: boolean } {
  if (item.eventCode === 'CANCEL_OR_REFUND') {
    const action = item.additionalData?.['modification.action'];
    return { event: action === 'refund' ? 'refund' : action === 'cancel' ? 'void' : 'other' };
  }
  return EVENTS[item.eventCode] ?? { event: 'other' };
}

function toNotification(item: Item): ProviderNotification {
  const { event, failed } = eventOf(item);
  const success = item.success === 'true' && !failed;
  const authorisation = item.eventCode === 'AUTHORISATION';
  const { currency, value } = item.amount;
  const amount = fromAdyenUnits(currency, BigInt(value));
  const threeDs = authorisation ? threeDsOf(item) : undefined;
  return {
    // Adyen may deliver a notification again: the same event on the same reference with the same
    // outcome and amount. One with another amount is another report (the gateway checks amounts).
    id: `${item.eventCode}:${item.pspReference}:${item.success}:${currency}:${value}`,
    event,
    success,
    providerChargeId: authorisation ? item.pspReference : item.originalReference,
    reference: item.merchantReference,
    ...(!authorisation && { providerReference: item.pspReference }),
    currency,
    ...(amount !== undefined && { amount }),
    ...(!success && { failure: authorisation ? refusalByReason(item.reason) : modificationFailure(item.eventCode) }),
    ...(threeDs && { threeDs }),
  };
}

export const ADYEN_NOTIFICATIONS: NotificationFormat = {
  read({ rawBody, parameters }): NotificationRead {
    const hmacKey = parameters.HmacKey;
    // An empty key would let anyone sign (checkParameters demands a hex key; this guards the rest).
    if (!hmacKey || !/^(?:[0-9a-fA-F]{2})+$/.test(hmacKey)) return { ok: false, reason: 'the provider has no HMAC key' };
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, reason: 'not JSON' };
    }
    const wrappers = isObject(body) ? body.notificationItems : undefined;
    if (!Array.isArray(wrappers) || wrappers.length === 0) return { ok: false, reason: 'no notificationItems' };
    const items: Item[] = [];
    for (const wrapper of wrappers) {
      const item = readItem(isObject(wrapper) ? wrapper.NotificationRequestItem : undefined);
      if (!item) return { ok: false, reason: 'a malformed notification item' };
      if (item.merchantAccountCode !== parameters.MerchantAccount) return { ok: false, reason: 'an item for another merchant account' };
      let signed = false;
      try {
        signed = validator.validateHMAC(item as unknown as LibraryItem, hmacKey);
      } catch {
        // No signature at all.
      }
      if (!signed) return { ok: false, reason: 'an item without a valid HMAC signature' };
      items.push(item);
    }
    return { ok: true, notifications: items.map(toNotification) };
  },
  accepted: { status: 200, contentType: 'text/plain', body: '[accepted]' },
};
