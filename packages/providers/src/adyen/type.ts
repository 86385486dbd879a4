import { CARD_OPERATIONS, readParameters, type Environment, type ProviderType } from '../provider-type.js';
import { createAdyenConnector } from './connector.js';
import { ADYEN_CURRENCIES, toAdyenUnits } from './currencies.js';
import { ADYEN_NOTIFICATIONS } from './notifications.js';

/** Adyen's Checkout API, version 71: the version the contract tests validate against. */
export const ADYEN_API_VERSION = 'v71';

const PARAMETERS = [
  { name: 'ApiKey', required: true, secret: true, description: 'API key of an Adyen API credential (Developers › API credentials)' },
  { name: 'MerchantAccount', required: true, secret: false, description: 'The Adyen merchant account payments are made on' },
  {
    name: 'HmacKey',
    required: true,
    secret: true,
    description: 'HMAC key (hex) of the Standard notification webhook, to verify notifications',
  },
  {
    name: 'LiveUrlPrefix',
    required: 'PRODUCTION',
    secret: false,
    description: 'The live endpoint prefix of the Adyen company account (Developers › API URLs), e.g. 1797a841fbb37ca7-AdyenDemo',
  },
] as const;

/**
 * What each parameter must look like. The live prefix becomes part of a host name, so it is held
 * to letters, digits and hyphens: no value can send the credentials to another host.
 */
function problemOf(name: string, value: string): string | undefined {
  switch (name) {
    case 'ApiKey':
      return /^[\x21-\x7e]{10,}$/.test(value) ? undefined : 'ApiKey must be an Adyen API key (printable characters, no spaces)';
    case 'MerchantAccount':
      return /^[A-Za-z0-9_.-]{1,80}$/.test(value) ? undefined : 'MerchantAccount must be an Adyen merchant account name';
    case 'HmacKey':
      return /^(?:[0-9a-fA-F]{2}){16,}$/.test(value)
        ? undefined
        : 'HmacKey must be the hexadecimal HMAC key Adyen shows (at least 32 digits)';
    case 'LiveUrlPrefix':
      return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?$/.test(value)
        ? undefined
        : 'LiveUrlPrefix must be letters, digits and hyphens';
    default:
      return undefined;
  }
}

function endpoint(environment: Environment, parameters: Readonly<Record<string, string>>): string {
  if (environment === 'SANDBOX') return `https://checkout-test.adyen.com/${ADYEN_API_VERSION}`;
  return `https://${parameters.LiveUrlPrefix}-checkout-live.adyenpayments.com/checkout/${ADYEN_API_VERSION}`;
}

/** Adyen (Checkout API v71): cards, stored payment methods, notifications, 3-D Secure (redirect, or the merchant's own). */
export const ADYEN: ProviderType = {
  type: 'adyen',
  displayName: 'Adyen',
  parameters: PARAMETERS,
  checkParameters: (parameters, environment) => readParameters(PARAMETERS, parameters, environment, problemOf),
  currencies: ADYEN_CURRENCIES,
  providerAmount: toAdyenUnits,
  // Adyen has no call to change a stored card's expiry, and its stored payment method ids are multi-use only.
  operations: new Set([
    ...CARD_OPERATIONS.filter((op) => op !== 'updateStoredCard' && op !== 'singleUseToken'),
    'notifications',
    'threeDsRedirect',
    'externalThreeDs',
  ]),
  endpoint,
  connector: ({ baseUrl, timeoutMs, parameters }) =>
    createAdyenConnector({ baseUrl, timeoutMs, apiKey: parameters.ApiKey ?? '', merchantAccount: parameters.MerchantAccount ?? '' }),
  notifications: ADYEN_NOTIFICATIONS,
};
