import { ApiError, formatAmount, type Currency } from '@gateway/core';
import type { Provider } from '@gateway/db';
import { providerType, type ProviderType } from '@gateway/providers';
import { requireAmount, requireCurrency } from '../money';

/** The type of a provider row (one the gateway created it with), else 100 Provider Not Supported. */
export function typeOfProvider(provider: Pick<Provider, 'type'>): ProviderType {
  const type = providerType(provider.type);
  if (!type) throw new ApiError('ProviderNotSupported', { message: `Provider type ${provider.type} is not supported` });
  return type;
}

/** 29 when providers of this type do not take the currency (naming the type, and the request field). */
export function currencyRefusal(type: ProviderType, currency: Currency, field = 'currency'): ApiError | undefined {
  if (type.currencies.includes(currency.code)) return undefined;
  return new ApiError('CurrencyNotSupported', {
    message: `Providers of type ${type.type} do not take ${currency.code}`,
    details: { [field]: `Not taken by providers of type ${type.type}` },
  });
}

/** The smallest amount of the currency (in ISO minor units, a power of ten) the type can express, if any. */
function smallestStep(type: ProviderType, currency: Currency): bigint | undefined {
  for (let digits = 0; digits <= currency.exponent; digits++) {
    const step = 10n ** BigInt(digits);
    if (type.providerAmount(currency.code, step) !== undefined) return step;
  }
  return undefined;
}

/**
 * Why providers of this type cannot take `amount` (ISO minor units) of `currency`: 29 for a
 * currency the type does not take, 2 for an amount it cannot count in its own minor units (Stripe's
 * three-decimal currencies in steps of 10, for instance). Undefined when it can.
 */
export function chargeRefusal(type: ProviderType, currency: Currency, amount: bigint): ApiError | undefined {
  const refused = currencyRefusal(type, currency);
  if (refused || type.providerAmount(currency.code, amount) !== undefined) return refused;
  const step = smallestStep(type, currency);
  const why = step
    ? `providers of type ${type.type} take ${currency.code} in steps of ${formatAmount(step, currency)}`
    : `providers of type ${type.type} cannot count this amount of ${currency.code}`;
  return new ApiError('InvalidAmount', {
    message: `The amount ${formatAmount(amount, currency)} ${currency.code} cannot be charged: ${why}`,
    details: { amount: step ? `A multiple of ${formatAmount(step, currency)}` : `Not an amount providers of type ${type.type} take` },
  });
}

/**
 * The currency of a charge at this provider (the one asked for, else the provider's default) and
 * its amount in ISO minor units, once ISO 4217 precision and the provider's type accept both.
 */
export function chargeMoney(provider: Pick<Provider, 'type' | 'currency'>, input: { amount: string | number; currency?: string }) {
  const currency = requireCurrency(input.currency ?? provider.currency);
  const amount = requireAmount(input.amount, currency);
  const refused = chargeRefusal(typeOfProvider(provider), currency, amount);
  if (refused) throw refused;
  return { currency, amount };
}
