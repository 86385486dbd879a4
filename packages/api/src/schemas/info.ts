import { z } from 'zod';
import { dateOutput } from './common';

export const infoOutput = z
  .object({
    countries: z.array(
      z.object({
        friendlyName: z.string(),
        name: z.string().meta({ description: 'ISO 3166-1 short name' }),
        twoLetterCode: z.string(),
        threeLetterCode: z.string(),
        numericCode: z.string(),
      }),
    ),
    currencies: z.array(
      z.object({ id: z.string(), currencyCode: z.string(), currencyNumber: z.string(), name: z.string(), useConversion: z.boolean() }),
    ),
    timezones: z.array(z.string()).meta({ description: 'IANA time zone names' }),
  })
  .meta({ id: 'Info' });

export type InfoView = z.infer<typeof infoOutput>;

const none = z.array(z.never()).meta({ description: 'This gateway has no provider of this kind: always empty' });

export const infoProvidersOutput = z
  .object({
    hasCardProviders: z.boolean().meta({ description: 'Whether a card provider of the account takes the currency asked for' }),
    paypalProviders: none,
    hasPaypalProviders: z.boolean(),
    required3dsProvider: z.null(),
    hasPayToProviders: z.boolean(),
    payToProviders: z.array(z.string()).meta({ description: 'Ids of the providers that take PayTo agreements' }),
    payToProvidersWithOptions: none,
    hasBnplProviders: z.boolean(),
    bnplProviders: none,
    hasVisaInstallmentsProviders: z.boolean(),
    visaInstallmentsProviders: none,
    hasFraudProviders: z.boolean(),
    fraudProviders: none,
    hasThreeDsProviders: z.boolean(),
    threeDsProviders: none,
    allThreeDsProviders: none,
    hasGooglePayProviders: z.boolean(),
    googlePayProviders: none,
    hasApplePayProviders: z.boolean(),
    applePayProviders: z.array(
      z.object({
        lineItemLabel: z.string(),
        merchantIdentifier: z.string().nullable(),
        domainName: z.string().nullable(),
        displayName: z.string(),
        providerId: z.string(),
        providerType: z.string(),
        clientParameters: z.record(z.string(), z.string()),
      }),
    ),
    clickToPayEnabled: z.boolean(),
    clickToPayOptions: z.null(),
    hasNetworkTokenProviders: z.boolean(),
    networkTokenProviders: z.array(
      z.object({ providerId: z.string(), providerType: z.string(), clientParameters: z.record(z.string(), z.string()) }),
    ),
  })
  .meta({ id: 'InfoProviders' });

export type InfoProvidersView = z.infer<typeof infoProvidersOutput>;

export const infoProviderOutput = z
  .object({
    threeDsProviderId: z.string().nullable(),
    threeDsProviderType: z.null(),
    requiredFields: z.record(z.string(), z.string()),
    clientParameters: z.record(z.string(), z.string()),
    googlePay: z.null(),
  })
  .meta({ id: 'InfoProvider' });

export type InfoProviderView = z.infer<typeof infoProviderOutput>;

export const versionOutput = z
  .object({
    version: z.string().meta({ example: '1.0.0' }),
    released: dateOutput,
    region: z.string().meta({ example: 'global' }),
  })
  .meta({ id: 'Version' });

export type VersionView = z.infer<typeof versionOutput>;

export const providerTypesOutput = z
  .object({
    providerTypes: z.array(
      z.object({
        type: z.string().meta({ description: 'The `type` of POST /provider', example: 'stripe' }),
        displayName: z.string(),
        parameters: z
          .array(
            z.object({
              name: z.string().meta({ description: 'Name in authenticationParameters (matched in any case)' }),
              requiredIn: z
                .array(z.enum(['SANDBOX', 'PRODUCTION']))
                .meta({ description: 'The environments in which the parameter must be given (empty: optional)' }),
              secret: z.boolean().meta({ description: 'A secret; every parameter is stored sealed and answered masked' }),
              description: z.string(),
            }),
          )
          .meta({ description: 'Its authenticationParameters' }),
        currencies: z.array(z.string()).meta({ description: 'ISO 4217 codes of the currencies its providers take' }),
        operations: z.array(z.string()).meta({
          description:
            'What its providers offer (authorise, sale, capture, partialCapture, void, refund, partialRefund, reverse, storeCard, describeStoredCard, updateStoredCard, deleteStoredCard, singleUseToken, multiUseToken, recurring, networkToken, bankAccountDebit, payTo, applePay, notifications); anything else answers FeatureUnavailable',
        }),
      }),
    ),
  })
  .meta({ id: 'InfoProviderTypes' });

export type ProviderTypesView = z.infer<typeof providerTypesOutput>;
