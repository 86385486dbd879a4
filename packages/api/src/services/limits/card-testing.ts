import { createHmac } from 'node:crypto';
import { ApiError } from '@gateway/core';
import type { Account } from '@gateway/db';
import { PROVIDER_TYPES, UNSUPPORTED_CODE } from '@gateway/providers';
import type { Dependencies } from '../deps';
import { UnconfirmedOutcome } from '../providers/connectors';
import { RateLimited, type Counter, type Counters } from './index';

/** A call made with a public key: whose, from where, and with which card when the gateway can tell. */
export interface PublicAttempt {
  account: Pick<Account, 'id'>;
  address: string;
  /** The card's fingerprint (cardFingerprint), when the request names a card. */
  card: string | undefined;
}

/**
 * Any refusal that came from the provider (it carries the provider's code), whatever its reason:
 * a decline, a limit, 3-D Secure required, a currency the acquirer refused, a retryable issuer
 * answer. Each tells a card tester something about the card, so a public-key caller gets only
 * "declined" and it counts as a decline. An outcome the provider did not confirm says nothing of
 * the card (and the charge may still succeed): it is not one; nor is what the provider's type does
 * not offer at all (FeatureUnavailable naming the type, whatever the card).
 */
export const isDecline = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  !(error instanceof UnconfirmedOutcome) &&
  error.gatewayCode !== undefined &&
  error.gatewayCode !== UNSUPPORTED_CODE;

/** What a public-key caller is told of any decline: that it was one, never why (the charge keeps the reason). */
export const quietDecline = (error: ApiError) =>
  new ApiError('TransactionError', { message: 'The card was declined', details: error.details });

const TOO_MANY = 'Too many payment attempts: try again later';

/** The card number in a wallet token's payment data, where a provider type can read it. */
function walletCardNumber(token: unknown): string | undefined {
  const paymentData = (token as { paymentData?: unknown } | undefined)?.paymentData;
  if (paymentData === undefined || typeof token !== 'object') return undefined;
  for (const type of PROVIDER_TYPES.values()) {
    const number = type.walletCardNumber?.(paymentData);
    if (number) return number;
  }
  return undefined;
}

/**
 * Card testing through the public key (docs/operations.md, "Abuse limits"): calls counted per
 * account and per client address, declines counted per account, per address and per card. A
 * decline is reserved on each of its counters before the provider is asked (so that parallel calls
 * cannot all pass a check made before any of them is counted) and given back when the call was not
 * declined. A card is known by a fingerprint of its first six and last four digits under a key
 * derived from the current master key, so the RateLimit table holds no card data; the
 * first-six/last-four is also all a stored token keeps. Wallet payment data is read for a
 * fingerprint only where a provider type can read it (the dummy type's test format; a real Apple
 * Pay token is sealed for the provider, and such charges count per account and address only).
 */
export function createCardTestingGuard({ db, config }: Pick<Dependencies, 'db' | 'config'>, counters: Counters) {
  const fingerprintKey = createHmac('sha256', config.keyring.keys.get(config.keyring.currentKeyId) ?? Buffer.alloc(0))
    .update('card fingerprint')
    .digest();
  const fingerprint = (firstSixLastFour: string) => createHmac('sha256', fingerprintKey).update(firstSixLastFour).digest('base64url');

  const declineCounters = ({ account, address, card }: PublicAttempt): [Counter, string][] => [
    [counters['public-key-declines'], account.id],
    [counters['public-address-declines'], address],
    ...(card ? [[counters['public-card-declines'], card] as [Counter, string]] : []),
  ];

  return {
    /** The fingerprint of the card a request names: a card number, wallet data holding one, or a token of this account. */
    async cardOf(account: Pick<Account, 'id'>, input: unknown): Promise<string | undefined> {
      const { paymentInformation, token } = (input ?? {}) as { paymentInformation?: { cardNumber?: unknown }; token?: unknown };
      const number = typeof paymentInformation?.cardNumber === 'string' ? paymentInformation.cardNumber : walletCardNumber(token);
      const digits = number?.replace(/\D/g, '') ?? '';
      if (digits.length >= 12) return fingerprint(digits.slice(0, 6) + digits.slice(-4));
      if (typeof token !== 'string' || token.length > 100) return undefined;
      const row = await db.paymentToken.findFirst({ where: { id: token, accountId: account.id }, select: { cardMasked: true } });
      return row?.cardMasked ? fingerprint(row.cardMasked.slice(0, 6) + row.cardMasked.slice(-4)) : undefined;
    },

    /**
     * Counts the call and reserves a decline on each decline counter, refusing (429) past any limit;
     * a refused call keeps no reservation. Every admitted call ends with `settle`.
     */
    async admit(attempt: PublicAttempt): Promise<void> {
      await Promise.all([
        counters['public-key-calls'].count(attempt.account.id, TOO_MANY),
        counters['public-address-calls'].count(attempt.address, TOO_MANY),
      ]);
      const reservations = declineCounters(attempt);
      const results = await Promise.allSettled(reservations.map(([counter, subject]) => counter.count(subject, TOO_MANY)));
      const refused = results.find((result) => result.status === 'rejected');
      if (!refused) return;
      // A refused reservation was counted too (the store counts, then compares): give every one back.
      const counted = reservations.filter(
        (_, i) => results[i]?.status === 'fulfilled' || (results[i] as PromiseRejectedResult).reason instanceof RateLimited,
      );
      await Promise.all(counted.map(([counter, subject]) => counter.giveBack(subject)));
      throw refused.reason;
    },

    /** Keeps the reserved decline when the call was declined, else gives it back. */
    async settle(attempt: PublicAttempt, declined: boolean): Promise<void> {
      if (declined) return;
      await Promise.all(declineCounters(attempt).map(([counter, subject]) => counter.giveBack(subject)));
    },
  };
}

export type CardTestingGuard = ReturnType<typeof createCardTestingGuard>;
