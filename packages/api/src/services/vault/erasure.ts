import type { Prisma } from '@gateway/db';
import type { JobHandler } from '@gateway/jobs';
import type { Dependencies } from '../deps';

/**
 * Erasing sealed card data: the CCV after its retention delay or its first payment, everything
 * when an item expires or is deleted. Erasing sets the sealed columns to null; every erase is a
 * conditional update, so running one twice (a job retried after a crash) changes nothing.
 */

export const VAULT_QUEUES = { eraseCcv: 'vault.erase-ccv', expire: 'vault.expire' } as const;

export const ccvJobKey = (vaultItemId: string) => `vault-ccv:${vaultItemId}`;
export const expireJobKey = (vaultItemId: string) => `vault-expire:${vaultItemId}`;

const ERASED_CCV = { ccvKeyId: null, ccvKey: null, ccv: null } satisfies Prisma.VaultItemUpdateManyMutationInput;
export const ERASED_CARD = { ...ERASED_CCV, panKeyId: null, panKey: null, pan: null } satisfies Prisma.VaultItemUpdateManyMutationInput;

function vaultItemIdOf(payload: unknown): string {
  const id = (payload as { vaultItemId?: unknown } | null)?.vaultItemId;
  if (typeof id !== 'string') throw new Error('vault job payload has no vaultItemId');
  return id;
}

export function createVaultErasure({ db, clock }: Dependencies) {
  /** Erases the CCV of an item if it still has one; true when this call erased it. */
  async function eraseCcv(where: { id: string; accountId?: string }): Promise<boolean> {
    const { count } = await db.vaultItem.updateMany({
      where: { ...where, ccvKeyId: { not: null } },
      data: { ...ERASED_CCV, ccvErasedAt: clock.now() },
    });
    return count === 1;
  }

  /** Erases the card of an expired item. A job run before the expiry date fails, to be retried. */
  async function expire(vaultItemId: string): Promise<void> {
    const now = clock.now();
    const item = await db.vaultItem.findUnique({ where: { id: vaultItemId }, select: { expireDate: true } });
    if (!item?.expireDate) return;
    if (item.expireDate > now) throw new Error(`vault item ${vaultItemId} expires at ${item.expireDate.toISOString()}, not yet`);
    await eraseCcv({ id: vaultItemId });
    await db.vaultItem.updateMany({ where: { id: vaultItemId, panKeyId: { not: null } }, data: ERASED_CARD });
  }

  const jobHandlers: Record<(typeof VAULT_QUEUES)[keyof typeof VAULT_QUEUES], JobHandler> = {
    [VAULT_QUEUES.eraseCcv]: async (payload) => void (await eraseCcv({ id: vaultItemIdOf(payload) })),
    [VAULT_QUEUES.expire]: (payload) => expire(vaultItemIdOf(payload)),
  };

  return { eraseCcv, jobHandlers };
}

export type VaultErasure = ReturnType<typeof createVaultErasure>;
