import { ApiError, describeAmountProblem, findCurrency, parseAmount, type Currency } from '@gateway/core';

export function requireCurrency(code: string): Currency {
  const currency = findCurrency(code);
  if (!currency) throw new ApiError('CurrencyNotSupported', { message: `Unknown currency ${code}` });
  return currency;
}

/** Parses a wire amount into minor units of the currency, or throws the matching API error. */
export function requireAmount(value: string | number, currency: Currency, field = 'amount'): bigint {
  const result = parseAmount(value, currency);
  if (result.ok) return result.minor;
  switch (result.problem) {
    case 'not_positive':
      throw new ApiError('InvalidAmountMustBePositive', { message: `The ${field} must be greater than zero` });
    case 'too_precise':
      throw new ApiError('InvalidAmount', {
        message: describeAmountProblem('too_precise', currency),
        details: { [field]: `At most ${currency.exponent} decimal places` },
      });
    case 'too_large':
      throw new ApiError('AmountTooLarge');
    case 'not_a_number':
      throw new ApiError('InvalidAmount', { message: `The ${field} is not a number` });
  }
}
