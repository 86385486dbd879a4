import {
  ApiError,
  estimateCost,
  feeRulesIn,
  isInternationalCard,
  NO_EXCHANGE_RATES,
  parseDecimal,
  rankByCost,
  type Currency,
  type FeeRule,
  type IinData,
  type Route,
} from '@gateway/core';
import type { Db, Provider } from '@gateway/db';
import { requireCurrency } from '../money';
import { chargeRefusal, typeOfProvider } from './currencies';
import { activeProviders, type ProviderReader, type ProviderWithFees } from './provider-cache';
import { CARD_PROVIDER_TYPES } from './provider-types';

export type { ProviderWithFees };

const isCardProvider = (provider: Provider) => CARD_PROVIDER_TYPES.includes(provider.type);

/**
 * The provider's fee rules for a charge in `currency`, fixed fees in its minor units: the lines in
 * that currency, else the provider-currency lines converted at the operator's rate (feeRulesIn).
 * Undefined: no known cost in that currency.
 */
export function feeRules(provider: ProviderWithFees, currency: Currency, rates = NO_EXCHANGE_RATES): FeeRule[] | undefined {
  const lines = provider.fees.map((f) => ({
    currency: f.currency,
    cardScheme: f.cardScheme,
    isInternationalCard: f.isInternationalCard,
    fixed: f.fixedMinor,
    percentage: parseDecimal(f.percentage.toString()) ?? { units: 0n, scale: 0 },
  }));
  return feeRulesIn(lines, currency, requireCurrency(provider.currency), rates);
}

/** What a card charge would cost at the provider, in the charge currency; undefined when not known. */
export function estimatedCost(provider: ProviderWithFees, iin: IinData, currency: Currency, amount: bigint, rates = NO_EXCHANGE_RATES) {
  const rules = feeRules(provider, currency, rates);
  return rules && estimateCost(amount, cardFactsFor(iin, provider), rules);
}

/** An active provider of the account, or 39 Invalid Provider Id (400; 404 for an id in the path). */
export async function requireProvider(
  db: ProviderReader,
  accountId: string,
  providerId: string,
  http: 400 | 404 = 400,
): Promise<ProviderWithFees> {
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

/**
 * Card providers of the account whose type takes this amount in this currency, cheapest first for
 * this card; those with no known cost in the currency take no part (feeRules). 400 when none is left:
 * NoCardProvidersConfigured when no type takes the currency or none has a known cost in it, else
 * why the amount is refused.
 */
export async function leastCostRoutes(
  db: Db,
  accountId: string,
  currency: Currency,
  amount: bigint,
  iin: IinData,
  rates = NO_EXCHANGE_RATES,
): Promise<Route<ProviderWithFees>[]> {
  const providers = (await activeProviders(db, accountId)).filter(isCardProvider);
  const takers = providers.filter((provider) => typeOfProvider(provider).currencies.includes(currency.code));
  if (takers.length === 0) {
    throw new ApiError('NoCardProvidersConfigured', { message: `No card provider takes ${currency.code}` });
  }
  const refusals = takers.map((provider) => chargeRefusal(typeOfProvider(provider), currency, amount));
  const able = takers.filter((_, i) => refusals[i] === undefined);
  if (able.length === 0 && refusals[0]) throw refusals[0];
  const routes = rankByCost(
    amount,
    able.map((provider, rank) => ({ provider, rank, fees: feeRules(provider, currency, rates), card: cardFactsFor(iin, provider) })),
  );
  if (routes.length === 0) {
    throw new ApiError('NoCardProvidersConfigured', {
      message: `No card provider has a known cost in ${currency.code}: give one fee lines in ${currency.code}, or ask the operator for an exchange rate from its currency`,
    });
  }
  return routes;
}
