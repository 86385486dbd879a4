import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from './deps';

export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Keys hold no '-': the client SDKs read a region from the text after one. */
function newKey(prefix: 'sk' | 'pk'): string {
  return `${prefix}_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export interface NewAccount {
  account: Account;
  /** Shown once; only its hash is stored. */
  secretKey: string;
}

/** How long an authenticated key is trusted without asking the database again. */
const KEY_CACHE_MS = 10_000;
const KEY_CACHE_SIZE = 10_000;

export function createAccountService({ db, clock, logger }: Pick<Dependencies, 'db' | 'clock' | 'logger'>) {
  const recent = new Map<string, { account: Account; until: number }>();

  return {
    /**
     * Secret keys are long random strings, so a plain SHA-256 is a safe, fast lookup hash. Known
     * keys are remembered for a few seconds: every API call authenticates, and a replaced key
     * stops working within KEY_CACHE_MS on every gateway process.
     */
    async bySecretKey(key: string): Promise<Account | null> {
      const hash = hashSecretKey(key);
      const now = clock.now().getTime();
      const cached = recent.get(hash);
      if (cached && cached.until > now) return cached.account;
      const account = await db.account.findUnique({ where: { secretKeyHash: hash, disabledAt: null } });
      if (account) {
        if (recent.size >= KEY_CACHE_SIZE) recent.clear();
        recent.set(hash, { account, until: now + KEY_CACHE_MS });
      }
      return account;
    },

    byPublicKey(key: string): Promise<Account | null> {
      return db.account.findUnique({ where: { publicKey: key, disabledAt: null } });
    },

    async create(name: string, defaultCurrency = 'AUD'): Promise<NewAccount> {
      const secretKey = newKey('sk');
      const account = await db.account.create({
        data: {
          id: newId(),
          name,
          defaultCurrency,
          secretKeyHash: hashSecretKey(secretKey),
          secretKeyHint: secretKey.slice(-4),
          publicKey: newKey('pk'),
        },
      });
      return { account, secretKey };
    },

    /** A new secret key; the old one stops working at once in this process, within KEY_CACHE_MS in others. */
    async rotateSecretKey(account: Account, actor: string): Promise<NewAccount> {
      const secretKey = newKey('sk');
      const updated = await db.account.update({
        where: { id: account.id },
        data: { secretKeyHash: hashSecretKey(secretKey), secretKeyHint: secretKey.slice(-4) },
      });
      recent.clear();
      logger.info({ accountId: account.id, actor }, 'secret key rotated');
      return { account: updated, secretKey };
    },

    count(): Promise<number> {
      return db.account.count();
    },

    list() {
      return db.account.findMany({
        select: { id: true, name: true, publicKey: true, createdAt: true, disabledAt: true },
        orderBy: { createdAt: 'asc' },
      });
    },

    /**
     * Refuses the account's keys and staff sessions from now on: at once in this process, within
     * KEY_CACHE_MS in others. False when there is no such account.
     */
    async disable(accountId: string): Promise<boolean> {
      const { count } = await db.account.updateMany({ where: { id: accountId, disabledAt: null }, data: { disabledAt: clock.now() } });
      recent.clear();
      if (count > 0) logger.info({ accountId }, 'account disabled');
      return count > 0 || (await db.account.count({ where: { id: accountId } })) > 0;
    },

    /** Whether the public key may make wallet charges, and up to which amount (whole units of the charge currency). */
    async setPublicWalletCharges(account: Pick<Account, 'id'>, settings: { enabled: boolean; maxAmount: number | null }) {
      return db.account.update({
        where: { id: account.id },
        data: { publicWalletCharges: settings.enabled, publicWalletMaxAmount: settings.maxAmount },
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
