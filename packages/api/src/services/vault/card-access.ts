import { newId, notFound, open } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { sealedValue, vaultAad } from '../sealed-data';
import { ccvJobKey, type VaultErasure } from './erasure';
import { usable, type VaultCard } from './items';

/** Who reads clear card data and why, as the audit log records it. */
export interface VaultAccessReason {
  /** e.g. `secret-key:…Ab3d` (the account's secretKeyHint), `system`, `staff:<userId>`. */
  actor: string;
  /** e.g. `charge <chargeId>`, `payment method from vault <paymentMethodId>`. */
  purpose: string;
}

/**
 * The only ways clear card data leaves the vault, for the services that send it to a provider.
 * Nothing here is reachable from an API answer.
 */
export function createCardAccess({ db, clock, logger, config, jobs }: Dependencies, erasure: VaultErasure) {
  return {
    /**
     * The card of a usable item, decrypted after a VaultAccess row (who, when, which item, why,
     * which fields; never the data) is written. A deleted or expired item is a 404 (62) and is
     * not decrypted, even if its erase job has not run yet.
     */
    async readCard(account: Pick<Account, 'id'>, vaultItemId: string, reason: VaultAccessReason): Promise<VaultCard> {
      const now = clock.now();
      const item = await db.vaultItem.findFirst({ where: { id: vaultItemId, accountId: account.id, ...usable(now) } });
      const pan = item && sealedValue(item.panKeyId, item.panKey, item.pan);
      if (!item || !pan) throw notFound('InvalidVaultId', 'Vault item');
      const ccv = sealedValue(item.ccvKeyId, item.ccvKey, item.ccv);
      const fields = ccv ? ['cardNumber', 'ccv'] : ['cardNumber'];
      await db.vaultAccess.create({ data: { id: newId(), accountId: account.id, vaultItemId, ...reason, fields, at: now } });
      const cardNumber = open(pan, vaultAad(vaultItemId, 'pan'), config.keyring);
      return ccv ? { cardNumber, ccv: open(ccv, vaultAad(vaultItemId, 'ccv'), config.keyring) } : { cardNumber };
    },

    /**
     * A payment used the vaulted card (whatever its outcome): its CCV is erased now, in one
     * conditional update, and its retention job cancelled. Idempotent; unknown ids are ignored.
     */
    async consumeCcv(account: Pick<Account, 'id'>, vaultItemId: string): Promise<void> {
      const erased = await erasure.eraseCcv({ id: vaultItemId, accountId: account.id });
      if (erased) logger.info({ vaultItemId }, 'vaulted CCV erased after a payment');
      await jobs.cancel(ccvJobKey(vaultItemId));
    },
  };
}
