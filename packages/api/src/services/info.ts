import { COUNTRIES, CURRENCIES, notFound } from '@gateway/core';
import type { Account, Provider } from '@gateway/db';
import rootPackage from '../../../../package.json' with { type: 'json' };
import type { InfoProvidersView, InfoProviderView, InfoView, VersionView } from '../schemas/info';
import type { ProviderView } from '../schemas/provider';
import type { Dependencies } from './deps';
import { CARD_PROVIDER_TYPES } from './providers/provider-types';
import { defaultCardProvider, requireProvider } from './providers/selection';
import { toProviderView } from './providers/view';

/** Every family of InfoProviders but cards: this gateway has no such providers. */
const NO_OTHER_PROVIDERS: Omit<InfoProvidersView, 'hasCardProviders'> = {
  paypalProviders: [],
  hasPaypalProviders: false,
  required3dsProvider: null,
  hasPayToProviders: false,
  payToProviders: [],
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
  hasApplePayProviders: false,
  applePayProviders: [],
  clickToPayEnabled: false,
  clickToPayOptions: null,
  hasNetworkTokenProviders: false,
  networkTokenProviders: [],
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
      const cardProviders = await db.provider.count({
        where: {
          accountId: account.id,
          dateRemoved: null,
          type: { in: CARD_PROVIDER_TYPES },
          ...(query.currency && { currency: query.currency }),
          ...(query.cardProviderId && { id: query.cardProviderId }),
        },
      });
      return { hasCardProviders: cardProviders > 0, ...NO_OTHER_PROVIDERS };
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

    version(): VersionView {
      const { version = '1.0.0' } = rootPackage as { version?: string };
      return { version, released, region: 'global' };
    },
  };
}

export type InfoService = ReturnType<typeof createInfoService>;
