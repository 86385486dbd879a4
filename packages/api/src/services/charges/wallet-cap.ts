import { ApiError, convertMinorUnits, formatAmount, NO_EXCHANGE_RATES, type Currency, type ExchangeRates } from '@gateway/core';
import { requireCurrency } from '../money';

/** The currency of the cap on wallet charges made with the public key (docs/operations.md). */
const CAP_CURRENCY = requireCurrency('AUD');

/**
 * Refuses a public-key wallet charge over the account's cap (`maxAud` whole Australian dollars):
 * the amount, in minor units of its currency, is converted to AUD cents with the operator's
 * GATEWAY_EXCHANGE_RATES (integers only); a currency with no rate to AUD is refused rather than let
 * through uncapped.
 */
export function refuseOverWalletCap(currency: Currency, amount: bigint, maxAud: number, rates: ExchangeRates = NO_EXCHANGE_RATES) {
  const cap = BigInt(maxAud) * 10n ** BigInt(CAP_CURRENCY.exponent);
  const converted = convertMinorUnits(amount, currency, CAP_CURRENCY, rates);
  if (converted === undefined) {
    throw new ApiError('CurrencyNotSupported', {
      message: `A wallet charge made with the public key in ${currency.code} needs an exchange rate to AUD (GATEWAY_EXCHANGE_RATES): its cap is in AUD`,
      details: { currency: 'No exchange rate to AUD for the public-key wallet cap' },
    });
  }
  if (converted > cap) {
    throw new ApiError('AmountTooLarge', {
      message: `A wallet charge made with the public key may be at most ${formatAmount(cap, CAP_CURRENCY)} AUD`,
    });
  }
}
