import { open, seal, type Keyring } from '@gateway/core';
import type { Prisma } from '@gateway/db';
import { sealedColumns, sealedValue, storedWebhookAad, webhookAuthorizationAad, type WebhookOwner } from '../sealed-data';

/**
 * The Authorization value a webhook receiver gets is the merchant's credential: it is sealed to
 * its row wherever it is kept (the re-wrap command covers every place, sealed-data.ts).
 */

/** A request's `webhook` object: where to report the resource's events, and what to send as Authorization. */
export interface Webhook {
  url: string;
  authorization?: string;
}

/** How a row's `webhook` column keeps it: the authorization sealed (Base64 of key id, wrapped key, ciphertext). */
interface StoredWebhook {
  url: string;
  sealedAuthorization?: { keyId: string; key: string; value: string };
}

/**
 * The value to write to the `webhook` column of the row `table`/`id` made by a request with this
 * webhook; undefined (the column stays null) without one.
 */
export function sealWebhook(keyring: Keyring, table: WebhookOwner, id: string, webhook: Webhook | null | undefined) {
  if (!webhook) return undefined;
  if (webhook.authorization === undefined) return { url: webhook.url } satisfies StoredWebhook;
  const sealed = seal(webhook.authorization, storedWebhookAad(table, id), keyring);
  const sealedAuthorization = {
    keyId: sealed.keyId,
    key: sealed.wrappedKey.toString('base64'),
    value: sealed.ciphertext.toString('base64'),
  };
  return { url: webhook.url, sealedAuthorization } satisfies StoredWebhook;
}

/** The webhook a row keeps (written by sealWebhook), in clear for `webhooks.record`; null when it has none. */
export function openWebhook(keyring: Keyring, table: WebhookOwner, id: string, stored: Prisma.JsonValue | null): Webhook | null {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const { url, sealedAuthorization: sealed } = stored as unknown as StoredWebhook;
  if (!sealed) return { url };
  const authorization = open(
    { keyId: sealed.keyId, wrappedKey: Buffer.from(sealed.key, 'base64'), ciphertext: Buffer.from(sealed.value, 'base64') },
    storedWebhookAad(table, id),
    keyring,
  );
  return { url, authorization };
}

/** The authorization columns of a webhook subscription or delivery. */
export interface AuthorizationColumns {
  authorizationKeyId: string | null;
  authorizationKey: Uint8Array | null;
  authorization: Uint8Array | null;
}

type Table = 'WebhookSubscription' | 'WebhookDelivery';

/** The columns to write for `authorization` (none when absent). */
export function sealAuthorization(keyring: Keyring, table: Table, id: string, authorization: string | undefined) {
  if (authorization === undefined) return undefined;
  const { keyId, key, value } = sealedColumns(seal(authorization, webhookAuthorizationAad(table, id), keyring));
  return { authorizationKeyId: keyId, authorizationKey: key, authorization: value };
}

export function openAuthorization(keyring: Keyring, table: Table, row: { id: string } & AuthorizationColumns): string | undefined {
  const sealed = sealedValue(row.authorizationKeyId, row.authorizationKey, row.authorization);
  return sealed && open(sealed, webhookAuthorizationAad(table, row.id), keyring);
}
