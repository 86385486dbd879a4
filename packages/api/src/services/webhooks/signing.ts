import { createHmac, randomBytes } from 'node:crypto';
import { open, seal } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { sealedColumns, sealedValue, signingKeyAad } from '../sealed-data';

/**
 * The X-Payfurl-Signature of a webhook body (wire.md §4): Base64 of HMAC-SHA256 keyed with the
 * UTF-8 bytes of the signing key *as text* (it looks like Base64 but is not decoded), over the
 * exact body bytes.
 */
export function signature(signingKey: string, body: string): string {
  return createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(Buffer.from(body, 'utf8')).digest('base64');
}

/** Each account's signing key: made on first need, kept sealed in Account.signingKey*. */
export function createSigningKeys({ db, config, logger }: Dependencies) {
  /** 32 random bytes in Base64, the shape of the keys the SDKs' samples show. */
  function sealedNewKey(accountId: string) {
    const key = randomBytes(32).toString('base64');
    const { keyId, key: wrapped, value } = sealedColumns(seal(key, signingKeyAad(accountId), config.keyring));
    return { key, columns: { signingKeyId: keyId, signingKeyKey: wrapped, signingKey: value } };
  }

  /** The key that signs the account's deliveries (read from the row: a cached Account may predate it). */
  async function signingKey(account: Pick<Account, 'id'>): Promise<string> {
    const row = await db.account.findUniqueOrThrow({
      where: { id: account.id },
      select: { signingKeyId: true, signingKeyKey: true, signingKey: true },
    });
    const sealed = sealedValue(row.signingKeyId, row.signingKeyKey, row.signingKey);
    if (sealed) return open(sealed, signingKeyAad(account.id), config.keyring);
    const made = sealedNewKey(account.id);
    // Two first deliveries at once: one key wins, the other reads it.
    const { count } = await db.account.updateMany({ where: { id: account.id, signingKeyId: null }, data: made.columns });
    return count === 1 ? made.key : signingKey(account);
  }

  /** A new key: deliveries from now on, retries included, are signed with it. */
  async function rotateSigningKey(account: Pick<Account, 'id'>, actor: string): Promise<string> {
    const made = sealedNewKey(account.id);
    await db.account.update({ where: { id: account.id }, data: made.columns });
    logger.info({ accountId: account.id, actor }, 'webhook signing key rotated');
    return made.key;
  }

  return { signingKey, rotateSigningKey };
}
