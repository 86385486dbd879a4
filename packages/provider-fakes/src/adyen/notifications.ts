import HmacValidatorExport from '@adyen/api-library/lib/src/utils/hmacValidator.js';
import type { NotificationDraft } from './ledger.js';

/**
 * Adyen's standard notifications (webhooks): JSON `{live, notificationItems: [{NotificationRequestItem}]}`,
 * each item signed with the merchant's HMAC key (`additionalData.hmacSignature`, Adyen's own
 * library computes it). The Webhooks description is not in the npm package: the fields and the
 * required ones follow Adyen's Webhooks v1 `NotificationRequestItem`.
 */

// The library is CommonJS compiled from TypeScript: some loaders hand its default export over wrapped once more.
const HmacValidator: typeof HmacValidatorExport =
  (HmacValidatorExport as unknown as { default?: typeof HmacValidatorExport }).default ?? HmacValidatorExport;

/** The library types eventCode as its enum; the fake also signs codes it does not list. */
type LibraryItem = Parameters<HmacValidatorExport['calculateHmac']>[0];

export interface NotificationRequestItem {
  additionalData?: Record<string, string>;
  amount: { currency: string; value: number };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  paymentMethod?: string;
  pspReference: string;
  reason?: string;
  /** "true" or "false". */
  success: string;
}

/** A complete item from a draft, signed with `hmacKey` (hex). */
export function notificationItem(draft: NotificationDraft, merchantAccountCode: string, hmacKey: string): NotificationRequestItem {
  const { success, additionalData, ...rest } = draft;
  const item: NotificationRequestItem = { ...rest, success: String(success), merchantAccountCode, eventDate: new Date().toISOString() };
  return signItem({ ...item, additionalData: { ...additionalData } }, hmacKey);
}

/** The item with `additionalData.hmacSignature` computed over its signed fields with `hmacKey` (hex). */
export function signItem(item: NotificationRequestItem, hmacKey: string): NotificationRequestItem {
  const { hmacSignature: _old, ...additionalData } = item.additionalData ?? {};
  const unsigned = { ...item, additionalData };
  return {
    ...unsigned,
    additionalData: { ...additionalData, hmacSignature: new HmacValidator().calculateHmac(unsigned as LibraryItem, hmacKey) },
  };
}

/** The request body Adyen sends. */
export function notificationBody(items: NotificationRequestItem[], live = false): string {
  return JSON.stringify({ live: String(live), notificationItems: items.map((NotificationRequestItem) => ({ NotificationRequestItem })) });
}

export interface Delivery {
  items: NotificationRequestItem[];
  /** What the receiver answered (0 when it could not be reached). */
  status: number;
  body: string;
}

/** Posts a notification body the way Adyen does, and reads the answer. */
export async function deliver(url: string, body: string): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.text() };
  } catch {
    return { status: 0, body: '' };
  }
}
