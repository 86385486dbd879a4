import { findCountry, findCurrency, isWithinAmountRange, parseDecimal, parseWireDate, type ErrorName } from '@gateway/core';
import { z } from 'zod';
import { emptyIsAValue } from '../binding';
import { issueParams } from '../errors';

/**
 * trpc-to-openapi turns on Zod coercion for every z.boolean() and z.number() it finds in an input
 * object, bodies included, so "perhaps" or "0" would become `true`. The binder (binding.ts)
 * already turns wire text into numbers and booleans, so inputs declare primitives through this
 * pipe, which the coercion pass does not reach. schemas/inputs.test.ts checks none is missed.
 */
export function uncoerced<T extends z.ZodType>(schema: T) {
  return schema.pipe(z.custom<z.output<T>>(() => true));
}

export const booleanInput = uncoerced(z.boolean());

/** The largest count or offset an input takes: a 32-bit integer, what every integer column holds. */
export const MAX_COUNT = 2 ** 31 - 1;

/** Decimal text or number whose magnitude is below 10^15: amounts and amount bounds, body or query. */
function isAmount(value: string | number): boolean {
  const decimal = parseDecimal(value);
  return decimal !== undefined && isWithinAmountRange(decimal);
}
const AMOUNT_PROBLEM = { message: 'Amount must be a decimal number below 1,000,000,000,000,000', ...issueParams('InvalidAmount') };

/**
 * Amount on the wire: a JSON number or numeric text (the Java client sends text). A number past
 * the range is AmountTooLarge (25), as the charge services answered it before the range check.
 */
export const amountInput = z
  .union([z.number(), z.string()])
  .refine((value) => parseDecimal(value) !== undefined, { ...AMOUNT_PROBLEM, abort: true })
  .refine(isAmount, { message: 'Amount must be below 1,000,000,000,000,000', ...issueParams('AmountTooLarge') })
  .meta({ description: 'Decimal amount in major units, e.g. 15.5. Numeric strings are accepted.', example: 15.5 });

/** Amount in a query string; given empty, it is refused (400), not taken as absent. */
export const amountQuery = z
  .string()
  .refine(isAmount, AMOUNT_PROBLEM)
  .meta({ description: 'Decimal amount in major units, e.g. 15.5', example: '15.5' });
// `?amount=` on a refund is a mistake to refuse, not "refund everything".
emptyIsAValue.add(amountQuery);

/** ISO 4217 code in any case, answered in upper case. */
export const currencyInput = z
  .string()
  .refine((c) => findCurrency(c) !== undefined, { message: 'Unknown ISO 4217 currency', ...issueParams('CurrencyNotSupported') })
  .transform((c) => c.toUpperCase())
  .meta({ description: 'ISO 4217 currency code', example: 'AUD' });

/** ISO 3166-1 alpha-3 or alpha-2 code in any case, answered as alpha-3. */
export const countryInput = z
  .string()
  .refine((c) => findCountry(c) !== undefined, { message: 'Unknown ISO 3166 country', ...issueParams('InvalidCountry') })
  .transform((c) => findCountry(c)?.alpha3 ?? c)
  .meta({ description: 'ISO 3166-1 alpha-3 country code (alpha-2 is converted)', example: 'AUS' });

/**
 * A point in time in any of the formats the client SDKs send (see core/time/wire-date.ts). An
 * unreadable value fails with `errorName` when given, else as any validation failure (90).
 */
export function wireDateInput(errorName?: ErrorName) {
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx) => {
      const date = parseWireDate(value);
      if (!date) ctx.addIssue({ code: 'custom', message: 'Not a date (use ISO 8601)', ...(errorName && issueParams(errorName)) });
      return date ?? new Date(Number.NaN);
    })
    .meta({
      description: 'ISO 8601 date-time (epoch milliseconds and the client SDK formats are accepted)',
      example: '2026-01-31T00:00:00Z',
    });
}

export const dateInput = wireDateInput();

export const metadataInput = z
  .record(z.string().max(100), z.string().max(1000))
  .refine((m) => Object.keys(m).length <= 50, { message: 'At most 50 metadata keys' })
  .meta({ description: 'Up to 50 string key/value pairs' });

const line = z.string().max(200);

export const addressInput = z.object({
  line1: line.optional(),
  line2: line.optional(),
  city: line.optional(),
  country: line.optional(),
  postalCode: z.string().max(20).optional(),
  state: line.optional(),
});

export const orderInput = z.object({
  orderNumber: z.string().max(100).optional(),
  freightAmount: amountInput.optional(),
  dutyAmount: amountInput.optional(),
  items: z
    .array(
      z.object({
        productCode: z.string().max(100).optional(),
        commodityCode: z.string().max(100).optional(),
        description: z.string().max(500).optional(),
        quantity: uncoerced(z.number().int().min(0).max(MAX_COUNT)).optional(),
        unitOfMeasure: z.string().max(20).optional(),
        amount: amountInput.optional(),
        taxAmount: amountInput.optional(),
      }),
    )
    .max(500)
    .optional(),
});

export const geolocationInput = z.object({
  longitude: uncoerced(z.number().min(-180).max(180)),
  latitude: uncoerced(z.number().min(-90).max(90)),
});

export const webhookInput = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  // Sent as the Authorization header: only characters a header value may hold (no CR/LF, no
  // characters beyond Latin-1), refused here rather than failing every delivery later.
  authorization: z
    .string()
    .max(2000)
    .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'Only printable ASCII and Latin-1 characters (an HTTP header value)')
    .optional(),
});

export const nameInput = z.string().max(40);

/** Paging of every search: newest first unless sortBy says otherwise. */
export const pagingInput = {
  limit: uncoerced(z.number().int().min(1).max(100)).optional().meta({ description: 'Page size, 1–100 (default 20)' }),
  skip: uncoerced(z.number().int().min(0).max(MAX_COUNT)).optional().meta({ description: 'Items to skip (default 0)' }),
};

export const DEFAULT_PAGE_SIZE = 20;

export const dateRangeInput = {
  addedAfter: dateInput.optional(),
  addedBefore: dateInput.optional(),
};

/** Output: dates as ISO 8601 strings. */
export const dateOutput = z.iso.datetime();
export const nullableDateOutput = dateOutput.nullable();
