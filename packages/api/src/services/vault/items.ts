import { ApiError, maskCardNumber, newId, notFound, seal, type ErrorName } from '@gateway/core';
import type { Account, Prisma } from '@gateway/db';
import type { VaultView } from '../../schemas/vault';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey } from '../idempotency';
import { sealedColumns, vaultAad } from '../sealed-data';
import { ccvJobKey, ERASED_CARD, expireJobKey, VAULT_QUEUES } from './erasure';

/** Card data the vault keeps: a validated, normalised card number (schemas/card.ts) and the CCV. */
export interface VaultCard {
  cardNumber: string;
  ccv?: string;
}

/** When an item expires: `expireSeconds` from now or at `expireDate`, never both; neither = never. */
export interface VaultExpiry {
  expireSeconds?: number;
  expireDate?: Date;
}

interface ExpiryErrors {
  both: ErrorName;
  invalid: ErrorName;
}

/** The errors of a bad expiry: the vault's own fields, or vaultExpire* on cards saved elsewhere. */
const EXPIRY_ERRORS = {
  vault: { both: 'CannotProvideBothExpireDateAndExpireSeconds', invalid: 'InvalidExpireDateOrExpireSeconds' },
  vaultCard: { both: 'CannotProvideBothVaultExpireDateAndVaultExpireSeconds', invalid: 'InvalidVaultExpiryDate' },
} as const satisfies Record<string, ExpiryErrors>;

/** 9999-12-31T23:59:59.999Z: the latest instant the database stores. */
const LATEST_EXPIRY_MS = 253_402_300_799_999;

function expiryDate({ expireSeconds, expireDate }: VaultExpiry, now: Date, errors: ExpiryErrors): Date | null {
  if (expireSeconds !== undefined && expireDate !== undefined) throw new ApiError(errors.both);
  if (expireSeconds === undefined && expireDate === undefined) return null;
  const at = expireDate ?? new Date(now.getTime() + (expireSeconds ?? 0) * 1000);
  const wholeSeconds = expireSeconds === undefined || Number.isInteger(expireSeconds);
  if (!wholeSeconds || !(at.getTime() > now.getTime() && at.getTime() <= LATEST_EXPIRY_MS)) {
    throw new ApiError(errors.invalid, {
      message: 'The expiry must be a future date before 10000-01-01 or a whole number of seconds (at least 1)',
    });
  }
  return at;
}

/**
 * Checks the vaultExpire* fields of a card saved elsewhere before anything else is done with it:
 * 85 when both are given, 86 when invalid or past.
 */
export function checkVaultCardExpiry(expiry: VaultExpiry, now: Date): void {
  expiryDate(expiry, now, EXPIRY_ERRORS.vaultCard);
}

/** A vault item that may be used: neither deleted nor expired at `now`, its erase job run or not. */
export function usable(now: Date) {
  return { dateRemoved: null, OR: [{ expireDate: null }, { expireDate: { gt: now } }] } satisfies Prisma.VaultItemWhereInput;
}

const viewFields = { id: true, createdDate: true, expireDate: true, maskedCardNumber: true, ccvKeyId: true } as const;

function toVaultView(item: Prisma.VaultItemGetPayload<{ select: typeof viewFields }>): VaultView {
  return {
    vaultId: item.id,
    createdDate: item.createdDate.toISOString(),
    expireDate: item.expireDate?.toISOString() ?? null,
    maskedCardNumber: item.maskedCardNumber,
    hasCvv: item.ccvKeyId !== null,
  };
}

export function createVaultItems({ db, clock, jobs, config }: Dependencies) {
  /**
   * Seals the card and stores it with, in the same transaction, the jobs that will erase the CCV
   * after the retention delay and the card at its expiry: they run even if this process dies.
   */
  async function store(
    account: Pick<Account, 'id'>,
    card: VaultCard,
    expiry: VaultExpiry,
    errors: ExpiryErrors,
    heldKey?: HeldKey,
  ): Promise<VaultView> {
    const id = newId();
    const now = clock.now();
    const expireDate = expiryDate(expiry, now, errors);
    const pan = sealedColumns(seal(card.cardNumber, vaultAad(id, 'pan'), config.keyring));
    const ccv = card.ccv === undefined ? undefined : sealedColumns(seal(card.ccv, vaultAad(id, 'ccv'), config.keyring));
    const item = await db.$transaction(async (tx) => {
      const created = await tx.vaultItem.create({
        data: {
          id,
          accountId: account.id,
          panKeyId: pan.keyId,
          panKey: pan.key,
          pan: pan.value,
          ...(ccv && { ccvKeyId: ccv.keyId, ccvKey: ccv.key, ccv: ccv.value }),
          maskedCardNumber: maskCardNumber(card.cardNumber),
          iin: card.cardNumber.slice(0, 6),
          last4: card.cardNumber.slice(-4),
          expireDate,
          createdDate: now,
        },
        select: viewFields,
      });
      if (ccv) {
        const runAt = new Date(now.getTime() + config.ccvRetentionSeconds * 1000);
        await jobs.enqueue(VAULT_QUEUES.eraseCcv, { vaultItemId: id }, { runAt, dedupeKey: ccvJobKey(id), tx });
      }
      if (expireDate) await jobs.enqueue(VAULT_QUEUES.expire, { vaultItemId: id }, { runAt: expireDate, dedupeKey: expireJobKey(id), tx });
      await bindKey(tx, heldKey, { type: 'vault-item', id });
      return created;
    });
    return toVaultView(item);
  }

  return {
    /** POST /vault: expiry errors 82 (both given) and 83 (invalid or past). */
    create(account: Account, input: VaultCard & VaultExpiry, heldKey?: HeldKey): Promise<VaultView> {
      return store(account, input, input, EXPIRY_ERRORS.vault, heldKey);
    },

    /** The item as POST /vault answered it (an Idempotency-Key's answer, services/idempotency.ts), expired or removed since or not. */
    async created(account: Account, vaultId: string): Promise<VaultView> {
      return toVaultView(await db.vaultItem.findFirstOrThrow({ where: { id: vaultId, accountId: account.id }, select: viewFields }));
    },

    /**
     * Vaults a card given to another operation (tokens, customers and payment methods with
     * vaultCard): expiry errors 85 (both given) and 86 (invalid or past).
     */
    sealCard(account: Pick<Account, 'id'>, card: VaultCard, expiry: VaultExpiry = {}): Promise<VaultView> {
      return store(account, card, expiry, EXPIRY_ERRORS.vaultCard);
    },

    async get(account: Account, vaultId: string) {
      const item = await db.vaultItem.findFirst({
        where: { id: vaultId, accountId: account.id, ...usable(clock.now()) },
        select: viewFields,
      });
      if (!item) throw notFound('InvalidVaultId', 'Vault item');
      const view = toVaultView(item);
      return { ...view, cardNumber: view.maskedCardNumber, ccv: null };
    },

    /** Soft delete: the item stays for the record, its card data is erased at once. */
    async remove(account: Account, vaultId: string): Promise<VaultView> {
      const now = clock.now();
      const [item] = await db.vaultItem.updateManyAndReturn({
        where: { id: vaultId, accountId: account.id, ...usable(now) },
        data: { ...ERASED_CARD, dateRemoved: now },
        select: viewFields,
      });
      if (!item) throw notFound('InvalidVaultId', 'Vault item');
      await jobs.cancel(ccvJobKey(vaultId));
      await jobs.cancel(expireJobKey(vaultId));
      return toVaultView(item);
    },
  };
}
