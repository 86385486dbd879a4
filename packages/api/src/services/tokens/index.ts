import { ApiError, lookupIin, newTokenId, notFound } from '@gateway/core';
import type { Account, PaymentToken, Prisma, Provider } from '@gateway/db';
import { dateRange, paging } from '../../schemas/search';
import type { NewToken, TokenView } from '../../schemas/token';
import { keyedCard, summaryOf } from '../cards';
import { cardColumnsFromSummary } from '../charges/attempts';
import { cardView } from '../charges/view';
import type { Dependencies } from '../deps';
import { createKeyed, type HeldKey } from '../idempotency';
import { requireAmount, requireCurrency } from '../money';
import { providerSummary } from '../payment-methods/view';
import { defaultCardProvider, leastCostRoutes, requireProvider } from '../providers/selection';
import type { VaultService } from '../vault';
import { createTokenConsumer } from './consume';

/** How long a payment token can be used: 15 minutes, like an acquirer's own single-use tokens. */
export const TOKEN_LIFETIME_SECONDS = 15 * 60;

/** The token's card stays in the vault a minute longer, so that a token used at its last moment still finds it. */
const VAULT_GRACE_SECONDS = 60;

export type TokenStatus = 'ACTIVE' | 'USED' | 'EXPIRED';

export interface TokenSearch {
  status?: TokenStatus;
  providerId?: string;
  addedAfter?: Date;
  addedBefore?: Date;
  limit?: number;
  skip?: number;
}

type TokenRecord = PaymentToken & { provider: Provider };

function toTokenView(token: TokenRecord): TokenView {
  const iin = lookupIin((token.cardIin ?? '').padEnd(16, '0'));
  return {
    tokenId: token.id,
    gatewayTokenId: null,
    accountId: token.accountId,
    userId: null,
    card: cardView({ ...token, cardIssuer: iin.issuer, cardCountryCode: iin.countryCode, cardCountry: iin.country }),
    provider: providerSummary(token.provider),
    dateAdded: token.dateAdded.toISOString(),
    dateUsed: token.dateUsed?.toISOString() ?? null,
    payToStatus: null,
    metadata: (token.metadata as Record<string, string> | null) ?? null,
    clickToPay: null,
  };
}

/** EXPIRED is not stored: an ACTIVE token past its expiry is expired from that instant. */
function statusFilter(status: TokenStatus | undefined, now: Date): Prisma.PaymentTokenWhereInput {
  switch (status) {
    case 'ACTIVE':
      return { status: 'ACTIVE', expiresAt: { gt: now } };
    case 'EXPIRED':
      return { status: 'ACTIVE', expiresAt: { lte: now } };
    case 'USED':
      return { status: 'USED' };
    default:
      return {};
  }
}

/**
 * Payment tokens: a card collected in a browser with the public key becomes a single-use token
 * bound to a provider. The card waits in the vault (sealed, expiring with the token) until a
 * charge, customer or payment method uses the token up.
 */
export function createTokenService(deps: Dependencies, vault: Pick<VaultService, 'sealCard'>) {
  const { db, clock, config } = deps;
  /** A token as its creation answers it: with its expiry. */
  const issuedView = (token: PaymentToken & { provider: Provider }) => ({
    ...toTokenView(token),
    expiresAt: token.expiresAt.toISOString(),
  });

  async function issue(account: Account, input: NewToken, provider: Provider, heldKey: HeldKey | undefined) {
    const now = clock.now();
    const card = keyedCard(input.paymentInformation, now);
    const item = await vault.sealCard(
      account,
      { cardNumber: card.number, ccv: card.cvc },
      { expireSeconds: TOKEN_LIFETIME_SECONDS + VAULT_GRACE_SECONDS },
    );
    // A token keeps the masked card only; what the IIN tells is looked up again when it is answered.
    const { cardIssuer: _issuer, cardCountryCode: _code, cardCountry: _country, ...cardColumns } = cardColumnsFromSummary(summaryOf(card));
    const token = await createKeyed(db, heldKey, 'token', (tx) =>
      tx.paymentToken.create({
        data: {
          id: newTokenId(),
          accountId: account.id,
          providerId: provider.id,
          vaultItemId: item.vaultId,
          ...cardColumns,
          ip: input.ip ?? null,
          metadata: input.metadata,
          dateAdded: now,
          expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000),
        },
        include: { provider: true },
      }),
    );
    return issuedView(token);
  }

  return {
    ...createTokenConsumer(deps),

    /** POST /token/card: for the provider named, else the account's oldest card provider. */
    async createWithCard(account: Account, input: NewToken, providerId: string | undefined, heldKey?: HeldKey) {
      const provider = providerId ? await requireProvider(db, account.id, providerId) : await defaultCardProvider(db, account.id);
      return issue(account, input, provider, heldKey);
    },

    /** POST /token/card/least_cost: for the provider a least-cost charge of this amount would try first. */
    async createLeastCost(account: Account, input: NewToken & { amount: string | number; currency?: string }, heldKey?: HeldKey) {
      const currency = requireCurrency(input.currency ?? account.defaultCurrency);
      const amount = requireAmount(input.amount, currency);
      const card = keyedCard(input.paymentInformation, clock.now());
      const [cheapest] = await leastCostRoutes(db, account.id, currency, amount, lookupIin(card.number), config.exchangeRates);
      if (!cheapest) throw new ApiError('NoCardProvidersConfigured');
      return issue(account, input, cheapest.provider, heldKey);
    },

    /** The token as its creation answered it (an Idempotency-Key's answer, services/idempotency.ts). */
    async issued(account: Account, tokenId: string) {
      return issuedView(
        await db.paymentToken.findFirstOrThrow({ where: { id: tokenId, accountId: account.id }, include: { provider: true } }),
      );
    },

    async get(account: Account, tokenId: string): Promise<TokenView> {
      const token = await db.paymentToken.findFirst({ where: { id: tokenId, accountId: account.id }, include: { provider: true } });
      if (!token) throw notFound('InvalidTokenId', 'Token');
      return toTokenView(token);
    },

    async search(account: Account, input: TokenSearch) {
      const where: Prisma.PaymentTokenWhereInput = {
        AND: [
          { accountId: account.id },
          statusFilter(input.status, clock.now()),
          input.providerId !== undefined ? { providerId: input.providerId } : {},
          dateRange(input),
        ],
      };
      const { take, skip } = paging(input);
      const [count, tokens] = await Promise.all([
        db.paymentToken.count({ where }),
        db.paymentToken.findMany({ where, include: { provider: true }, orderBy: [{ dateAdded: 'desc' }, { id: 'desc' }], take, skip }),
      ]);
      return { limit: take, skip, count, tokens: tokens.map(toTokenView) };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
