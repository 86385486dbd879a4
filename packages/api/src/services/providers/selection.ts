import { ApiError, isInternationalCard, parseDecimal, rankByCost, type FeeRule, type IinData, type Route } from '@gateway/core';
import type { Db, Provider, ProviderFee } from '@gateway/db';
import { activeProviders, type ProviderWithFees } from './provider-cache';
import { CARD_PROVIDER_TYPES } from './provider-types';

export type { ProviderWithFees };

const isCardProvider = (provider: Provider) => CARD_PROVIDER_TYPES.includes(provider.type);

export function feeRules(fees: readonly ProviderFee[]): FeeRule[] {
  return fees.map((f) => ({
    cardScheme: f.cardScheme,
    isInternationalCard: f.isInternationalCard,
    fixed: f.fixedMinor,
    percentage: parseDecimal(f.percentage.toString()) ?? { units: 0n, scale: 0 },
  }));
}

/** An active provider of the account, or 39 Invalid Provider Id (400; 404 for an id in the path). */
export async function requireProvider(db: Db, accountId: string, providerId: string, http: 400 | 404 = 400): Promise<ProviderWithFees> {
  const provider = (await activeProviders(db, accountId)).find((p) => p.id === providerId);
  if (!provider) throw new ApiError('InvalidProviderId', { http, message: `No provider ${providerId}` });
  return provider;
}

/** The account's oldest active card provider: where a card goes when the caller names none (else `missing()`). */
export async function defaultCardProvider(
  db: Db,
  accountId: string,
  missing = () => new ApiError('NoCardProvidersConfigured'),
): Promise<ProviderWithFees> {
  const provider = (await activeProviders(db, accountId)).find(isCardProvider);
  if (!provider) throw missing();
  return provider;
}

/** The card as a provider sees it: its scheme, and whether it was issued abroad. */
export function cardFactsFor(iin: IinData, provider: Provider) {
  return { scheme: iin.scheme, international: isInternationalCard(iin, provider.country) };
}

/** Card providers of the account that take this currency, cheapest first for this card. */
export async function leastCostRoutes(
  db: Db,
  accountId: string,
  currency: string,
  amount: bigint,
  iin: IinData,
): Promise<Route<ProviderWithFees>[]> {
  const providers = (await activeProviders(db, accountId)).filter((p) => p.currency === currency && isCardProvider(p));
  if (providers.length === 0) {
    throw new ApiError('NoCardProvidersConfigured', { message: `No card provider takes ${currency}` });
  }
  return rankByCost(
    amount,
    providers.map((provider, rank) => ({ provider, rank, fees: feeRules(provider.fees), card: cardFactsFor(iin, provider) })),
  );
}
