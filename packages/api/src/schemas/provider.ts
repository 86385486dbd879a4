import { PROVIDER_TYPES, type ParameterSpec } from '@gateway/providers';
import { z } from 'zod';
import { notFreeText } from '../binding';
import { booleanInput, countryInput, currencyInput } from './common';

/** Keys and values as the client SDKs send them (a string → string dictionary). */
const parameters = (value: z.ZodString) =>
  z.record(z.string().min(1).max(100), value).refine((p) => Object.keys(p).length <= 50, { message: 'At most 50 parameters' });
const parametersInput = parameters(z.string().max(1000));
/** Credentials: their values are stored sealed (a merchant id may look like a card number); their names are not. */
const credentialsInput = parameters(z.string().max(1000).register(notFreeText));

/** When a parameter must be given, as the OpenAPI descriptions say it. */
const requirement = (p: ParameterSpec) => (p.required === true ? '' : p.required === false ? ' (optional)' : ` (${p.required})`);
const registered = [...PROVIDER_TYPES.values()];
/** The registered types (packages/providers/src/registry.ts), so that a new one is described by registering it. */
const typeNames = registered.map((t) => `${t.type} (${t.displayName})`).join(', ');
const parametersOfTypes = registered
  .map((t) => `${t.type}: ${t.parameters.map((p) => `${p.name}${requirement(p)}`).join(', ') || 'none'}.`)
  .join(' ');

/** A decimal as a JSON number or as text; fee amounts are checked against the line's currency. */
const decimalInput = z.union([z.number(), z.string()]);

/** One line of a fee schedule; an absent scheme or international flag matches any card. */
const feeInput = z.object({
  currency: currencyInput.optional().meta({
    description:
      "Currency of the charges this line prices, one the provider type takes (default: the provider currency). A charge in a currency with no line of its own is priced by the provider-currency lines, their fixed fee converted at the operator's exchange rate",
  }),
  cardScheme: z.string().max(20).optional().meta({ description: 'Card scheme (VISA, MASTERCARD, AMEX…); absent = any' }),
  isInternationalCard: booleanInput
    .optional()
    .meta({ description: 'true: cards issued outside the provider country; false: domestic cards; absent = any' }),
  transactionCost: decimalInput.optional().meta({ description: "Fixed fee per charge in the line's currency, e.g. 0.30 (default 0)" }),
  transactionPercentage: decimalInput.optional().meta({ description: 'Percentage of the amount, e.g. 1.75 (default 0)' }),
});

/** The fields of a provider that POST sets and PUT may change. */
const providerFields = {
  name: z.string().min(1).max(100),
  authenticationParameters: credentialsInput.optional().meta({
    description: `Connector credentials and settings, names in any case, stored encrypted and answered masked (GET /info/provider_types describes each type's). ${parametersOfTypes}`,
  }),
  additionalParameters: parametersInput.optional(),
  providerCountry: countryInput.optional().meta({ description: 'Country of the acquirer: cards issued elsewhere are international' }),
  currency: currencyInput.optional().meta({
    description:
      "Default currency: charges that name none are in it, and so are the fee lines that name none (default: the account's). The provider takes every currency its type supports (GET /info/provider_types)",
  }),
  threeDsProviderId: z.string().max(64).optional(),
  costData: z
    .array(feeInput)
    .max(100)
    .optional()
    .meta({ description: 'Fee schedule for least-cost routing (replaces the whole schedule)' }),
};

export const newProviderInput = z.object({
  type: z
    .string()
    .min(1)
    .max(50)
    .meta({ description: `Connector type: ${typeNames} (GET /info/provider_types)`, example: 'stripe' }),
  environment: z
    .enum(['SANDBOX', 'PRODUCTION'])
    .optional()
    .meta({ description: "Default SANDBOX: the provider's test endpoint; PRODUCTION its live one" }),
  ...providerFields,
});
export type NewProviderInput = z.infer<typeof newProviderInput>;

/** PUT: every field optional, absent = unchanged; type and environment may be sent only as they are. */
export const providerChangesInput = z
  .object({
    type: z.string().max(50).meta({ description: 'Cannot change: a different type answers 90 (create a new provider instead)' }),
    environment: z
      .enum(['SANDBOX', 'PRODUCTION'])
      .meta({ description: 'Cannot change: a different environment answers 90 (create a new provider instead)' }),
    ...providerFields,
  })
  .partial();
export type ProviderChanges = z.infer<typeof providerChangesInput>;

/** What answers show for every authenticationParameters value. */
export const MASKED_PARAMETER = '********';

const nullableString = z.string().nullable();
const unsupported = z.null().meta({ description: 'Not supported by this gateway: always null' });
const noConfiguration = z.array(z.never()).meta({ description: 'Not supported by this gateway: always empty' });

export const providerOutput = z
  .object({
    providerId: z.string(),
    type: z.string(),
    name: z.string(),
    environment: z.enum(['SANDBOX', 'PRODUCTION']),
    authenticationParameters: z
      .record(z.string(), z.literal(MASKED_PARAMETER))
      .meta({ description: 'The names of the parameters given, each value masked' }),
    additionalParameters: z.record(z.string(), z.string()),
    providerCountry: nullableString,
    costData: z.array(
      z.object({
        currency: z.string().meta({ description: 'Currency of the charges the line prices; transactionCost is in it' }),
        isInternationalCard: z.boolean().nullable(),
        cardScheme: nullableString,
        transactionCost: z.number(),
        transactionPercentage: z.number(),
      }),
    ),
    hideConfiguration: noConfiguration,
    requireConfiguration: noConfiguration,
    fallbackProviderId: unsupported,
    currency: z.string(),
    maxCapability: unsupported,
    hasPartialRefund: z.boolean(),
    fallbackProvider: unsupported,
    hasThreeDsCapability: z.boolean(),
  })
  .meta({ id: 'Provider' });

export type ProviderView = z.infer<typeof providerOutput>;

export const providerListOutput = z
  .object({ limit: z.number().int(), skip: z.number().int(), count: z.number().int(), providers: z.array(providerOutput) })
  .meta({ id: 'ProviderList' });
