import { createHmac } from 'node:crypto';
import { ApiError, type ErrorName } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import type { Counters } from './index';

/** A call made with a public key: whose, from where, and with which card when the gateway can tell. */
export interface PublicAttempt {
  account: Pick<Account, 'id'>;
  address: string;
  /** The card's fingerprint (cardFingerprint), when the request names a card. */
  card: string | undefined;
}

/** The errors a provider's decline becomes (services/providers/connectors.ts), whatever its reason. */
const DECLINES: ReadonlySet<ErrorName> = new Set([
  'TransactionError',
  'InsufficientFunds',
  'ExpiredCard',
  'CardBlocked',
  'InvalidCardNumber',
  'InvalidCcv',
]);

/** A decline a provider answered (it carries the provider's code), as opposed to input the gateway refused itself. */
export const isDecline = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.gatewayCode !== undefined && DECLINES.has(error.errorName);

/** What a public-key caller is told of any decline: that it was one, never why (the charge keeps the reason). */
export const quietDecline = (error: ApiError) =>
  new ApiError('TransactionError', { message: 'The card was declined', details: error.details });

const TOO_MANY = 'Too many payment attempts: try again later';

/**
 * Card testing through the public key (docs/operations.md, "Abuse limits"): calls counted per
 * account and per client address, declines counted per account, per address and per card, each
 * checked before the provider is asked. A card is known by a fingerprint of its first six and last
 * four digits under a key derived from the current master key, so the RateLimit table holds no
 * card data; the first-six/last-four is also all a stored token keeps. Wallet payment data is
 * sealed for the provider: wallet charges count per account and address only.
 */
export function createCardTestingGuard({ db, config }: Pick<Dependencies, 'db' | 'config'>, counters: Counters) {
  const fingerprintKey = createHmac('sha256', config.keyring.keys.get(config.keyring.currentKeyId) ?? Buffer.alloc(0))
    .update('card fingerprint')
    .digest();
  const fingerprint = (firstSixLastFour: string) => createHmac('sha256', fingerprintKey).update(firstSixLastFour).digest('base64url');

  return {
    /** The fingerprint of the card a request names: a card number, or a token of this account. */
    async cardOf(account: Pick<Account, 'id'>, input: unknown): Promise<string | undefined> {
      const { paymentInformation, token } = (input ?? {}) as { paymentInformation?: { cardNumber?: unknown }; token?: unknown };
      const digits = typeof paymentInformation?.cardNumber === 'string' ? paymentInformation.cardNumber.replace(/\D/g, '') : '';
      if (digits.length >= 12) return fingerprint(digits.slice(0, 6) + digits.slice(-4));
      if (typeof token !== 'string' || token.length > 100) return undefined;
      const row = await db.paymentToken.findFirst({ where: { id: token, accountId: account.id }, select: { cardMasked: true } });
      return row?.cardMasked ? fingerprint(row.cardMasked.slice(0, 6) + row.cardMasked.slice(-4)) : undefined;
    },

    /** Counts the call, and refuses it (429) past a limit of calls or declines. */
    async admit({ account, address, card }: PublicAttempt): Promise<void> {
      await Promise.all([
        counters['public-key-calls'].count(account.id, TOO_MANY),
        counters['public-address-calls'].count(address, TOO_MANY),
        counters['public-key-declines'].check(account.id, TOO_MANY),
        counters['public-address-declines'].check(address, TOO_MANY),
        card && counters['public-card-declines'].check(card, TOO_MANY),
      ]);
    },

    async declined({ account, address, card }: PublicAttempt): Promise<void> {
      await Promise.all([
        counters['public-key-declines'].add(account.id),
        counters['public-address-declines'].add(address),
        card && counters['public-card-declines'].add(card),
      ]);
    },
  };
}

export type CardTestingGuard = ReturnType<typeof createCardTestingGuard>;
