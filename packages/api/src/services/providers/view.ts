import { toWireAmount } from '@gateway/core';
import { MASKED_PARAMETER, type ProviderView } from '../../schemas/provider';
import { requireCurrency } from '../money';
import { typeOfProvider } from './currencies';
import { environmentOf } from './provider-types';
import type { ProviderWithFees } from './selection';

/** A provider as the API answers it: credentials masked, fees in minimal decimal form. */
export function toProviderView(provider: ProviderWithFees): ProviderView {
  const currency = requireCurrency(provider.currency);
  return {
    providerId: provider.id,
    type: provider.type,
    name: provider.name,
    environment: environmentOf(provider),
    authenticationParameters: Object.fromEntries(provider.credentialNames.map((name) => [name, MASKED_PARAMETER])),
    additionalParameters: provider.additionalParameters as Record<string, string>,
    providerCountry: provider.country,
    costData: provider.fees.map((fee) => ({
      currency: fee.currency,
      isInternationalCard: fee.isInternationalCard,
      cardScheme: fee.cardScheme,
      transactionCost: toWireAmount(fee.fixedMinor, requireCurrency(fee.currency)),
      transactionPercentage: fee.percentage.toNumber(),
    })),
    hideConfiguration: [],
    requireConfiguration: [],
    fallbackProviderId: null,
    currency: currency.code,
    maxCapability: null,
    hasPartialRefund: typeOfProvider(provider).operations.has('partialRefund'),
    fallbackProvider: null,
    hasThreeDsCapability: false,
  };
}
