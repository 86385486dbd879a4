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

export function createAccountService({ db }: Dependencies) {
  return {
    /** Secret keys are long random strings, so a plain SHA-256 is a safe, fast lookup hash. */
    bySecretKey(key: string): Promise<Account | null> {
      return db.account.findUnique({ where: { secretKeyHash: hashSecretKey(key) } });
    },

    byPublicKey(key: string): Promise<Account | null> {
      return db.account.findUnique({ where: { publicKey: key } });
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

    count(): Promise<number> {
      return db.account.count();
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
