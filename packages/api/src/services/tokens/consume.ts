import { ApiError } from '@gateway/core';
import type { Account, PaymentToken, Prisma } from '@gateway/db';
import type { Dependencies } from '../deps';

/** The refusal of a token that is unknown (or another account's), expired or used. */
export const tokenRefused = () => new ApiError('InvalidOrExpiredToken', { message: 'The token is unknown, expired or already used' });

/**
 * Uses up a payment token: one conditional update from ACTIVE to USED, so that of two requests
 * racing for one token exactly one gets it. A used, expired or unknown token (or another
 * account's) is refused with code 51. The token service (tokenisation, GET, search) builds on this.
 */
export function createTokenConsumer({ db, clock }: Dependencies) {
  return {
    /** The token, if it can still be used (nothing is changed: `consume` uses it up, in the transaction that uses it). */
    async usable(account: Account, tokenId: string): Promise<PaymentToken> {
      const token = await db.paymentToken.findFirst({
        where: { id: tokenId, accountId: account.id, status: 'ACTIVE', expiresAt: { gt: clock.now() } },
      });
      if (!token) throw tokenRefused();
      return token;
    },

    async consume(account: Account, tokenId: string, usedBy: string, tx?: Prisma.TransactionClient): Promise<PaymentToken> {
      const client = tx ?? db;
      const now = clock.now();
      const { count } = await client.paymentToken.updateMany({
        where: { id: tokenId, accountId: account.id, status: 'ACTIVE', expiresAt: { gt: now } },
        data: { status: 'USED', dateUsed: now, usedBy },
      });
      if (count !== 1) throw tokenRefused();
      return client.paymentToken.findUniqueOrThrow({ where: { id: tokenId } });
    },
  };
}
