import { COUNTRIES, CURRENCIES, notFound } from '@gateway/core';
import type { Account, Provider } from '@gateway/db';
import rootPackage from '../../../../package.json' with { type: 'json' };
import { PROVIDER_TYPES, type ProviderOperation } from '@gateway/providers';
import type { InfoProvidersView, InfoProviderView, InfoView, ProviderTypesView, VersionView } from '../schemas/info';
import type { ProviderView } from '../schemas/provider';
import type { Dependencies } from './deps';
import { requireCurrency } from './money';
import { typeOfProvider } from './providers/currencies';
import { CARD_PROVIDER_TYPES } from './providers/provider-types';
import { defaultCardProvider, requireProvider } from './providers/selection';
import { toProviderView } from './providers/view';

/** The families of InfoProviders that no provider type of this gateway takes. */
const NO_OTHER_PROVIDERS: Omit<
  InfoProvidersView,
  | 'hasCardProviders'
  | 'hasPayToProviders'
  | 'payToProviders'
  | 'hasApplePayProviders'
  | 'applePayProviders'
  | 'hasNetworkTokenProviders'
  | 'networkTokenProviders'
> = {
  paypalProviders: [],
  hasPaypalProviders: false,
  required3dsProvider: null,
  payToProvidersWithOptions: [],
  hasBnplProviders: false,
  bnplProviders: [],
  hasVisaInstallmentsProviders: false,
  visaInstallmentsProviders: [],
  hasFraudProviders: false,
  fraudProviders: [],
  hasThreeDsProviders: false,
  threeDsProviders: [],
  allThreeDsProviders: [],
  hasGooglePayProviders: false,
  googlePayProviders: [],
  clickToPayEnabled: false,
  clickToPayOptions: null,
};

const ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;

/** Every provider type of the registry, as GET /info/provider_types answers it. */
const PROVIDER_TYPES_VIEW: ProviderTypesView = {
  providerTypes: [...PROVIDER_TYPES.values()].map((type) => ({
    type: type.type,
    displayName: type.displayName,
    parameters: type.parameters.map((p) => ({
      name: p.name,
      requiredIn: ENVIRONMENTS.filter((environment) => p.required === true || p.required === environment),
      secret: p.secret,
      description: p.description,
    })),
    currencies: [...type.currencies],
    operations: [...type.operations],
  })),
};

function providerInfo(provider: Provider): InfoProviderView {
  return {
    threeDsProviderId: provider.threeDsProviderId,
    threeDsProviderType: null,
    requiredFields: {},
    clientParameters: {},
    googlePay: null,
  };
}

/** What a client may ask about the gateway and the account's providers (the /info routes, /version). */
export function createInfoService({ db, clock }: Dependencies) {
  /** No release date is recorded in a self-built gateway: the running one says when it started. */
  const released = clock.now().toISOString();
  let reference: InfoView | undefined;

  return {
    /** Countries (ISO 3166-1), currencies (ISO 4217) and time zones (IANA): the same for everyone. */
    general(): InfoView {
      reference ??= {
        countries: COUNTRIES.map((c) => ({
          friendlyName: c.friendlyName,
          name: c.name,
          twoLetterCode: c.alpha2,
          threeLetterCode: c.alpha3,
          numericCode: c.numeric,
        })),
        currencies: [...CURRENCIES.values()].map((c) => ({
          id: c.code,
          currencyCode: c.code,
          currencyNumber: c.number,
          name: c.name,
          useConversion: false,
        })),
        timezones: Intl.supportedValuesOf('timeZone'),
      };
      return reference;
    },

    /** Which kinds of payment the account can take (in `currency`, through `cardProviderId`, when given). */
    async providers(account: Account, query: { currency?: string; cardProviderId?: string }): Promise<InfoProvidersView> {
      const providers = await db.provider.findMany({
        where: {
          accountId: account.id,
          dateRemoved: null,
          type: { in: [...CARD_PROVIDER_TYPES] },
          ...(query.cardProviderId && { id: query.cardProviderId }),
        },
        select: { id: true, type: true, name: true },
        orderBy: [{ dateAdded: 'asc' }, { id: 'asc' }],
      });
      // A provider takes every currency its type supports.
      const currency = query.currency && requireCurrency(query.currency);
      const found = currency ? providers.filter((p) => typeOfProvider(p).currencies.includes(currency.code)) : providers;
      // Only some types (the simulated acquirer) also take PayTo agreements, Apple Pay and network tokens.
      const offering = (operation: ProviderOperation) => found.filter((p) => typeOfProvider(p).operations.has(operation));
      const payTo = offering('payTo');
      const applePay = offering('applePay');
      const networkToken = offering('networkToken');
      return {
        ...NO_OTHER_PROVIDERS,
        hasCardProviders: found.length > 0,
        hasPayToProviders: payTo.length > 0,
        payToProviders: payTo.map((p) => p.id),
        hasApplePayProviders: applePay.length > 0,
        applePayProviders: applePay.map((p) => ({
          lineItemLabel: p.name,
          merchantIdentifier: null,
          domainName: null,
          displayName: p.name,
          providerId: p.id,
          providerType: p.type,
          clientParameters: {},
        })),
        hasNetworkTokenProviders: networkToken.length > 0,
        networkTokenProviders: networkToken.map((p) => ({ providerId: p.id, providerType: p.type, clientParameters: {} })),
      };
    },

    async provider(account: Account, providerId: string): Promise<InfoProviderView> {
      return providerInfo(await requireProvider(db, account.id, providerId, 404));
    },

    /** The info of the provider a payment token of the account was issued for (else 404, 87). */
    async providerForToken(account: Account, tokenId: string): Promise<InfoProviderView> {
      const token = await db.paymentToken.findFirst({ where: { id: tokenId, accountId: account.id }, select: { providerId: true } });
      if (!token) throw notFound('InvalidTokenId', 'Payment token');
      return providerInfo(await requireProvider(db, account.id, token.providerId, 404));
    },

    /** The account's oldest active card provider (else 404, 65). */
    async defaultFallbackProvider(account: Account): Promise<ProviderView> {
      return toProviderView(await defaultCardProvider(db, account.id, () => notFound('NoProviderFound', 'Card provider')));
    },

    /** The provider types the gateway can create (GET /info/provider_types): the same for everyone. */
    providerTypes(): ProviderTypesView {
      return PROVIDER_TYPES_VIEW;
    },

    version(): VersionView {
      const { version = '1.0.0' } = rootPackage as { version?: string };
      return { version, released, region: 'global' };
    },
  };
}

export type InfoService = ReturnType<typeof createInfoService>;
