import { CARD_OPERATIONS, readParameters, type Environment, type ProviderType } from '../provider-type.js';
import { createCheckoutConnector } from './connector.js';
import { CHECKOUT_CURRENCIES, toCheckoutUnits } from './currencies.js';
import { CHECKOUT_NOTIFICATIONS } from './notifications.js';

const PARAMETERS = [
  {
    name: 'SecretKey',
    required: true,
    secret: true,
    description: 'Secret API key (Developers › Keys): sk_sbox_… for SANDBOX, the live sk_… for PRODUCTION',
  },
  { name: 'ProcessingChannelId', required: true, secret: false, description: 'The processing channel payments are made on (pc_…)' },
  {
    name: 'WebhookSecret',
    required: false,
    secret: true,
    description:
      'Secret key of the notification endpoint (Developers › Webhooks), to verify Cko-Signature; without it captures, voids and refunds are confirmed by reading the payment',
  },
] as const;

const SANDBOX_KEY = /^sk_sbox_[A-Za-z0-9]{16,}$/;
/** A live key: sk_ then the key, never a sandbox (sk_sbox_) or an older test key (sk_test_). */
const LIVE_KEY = /^sk_(?!sbox_|test_)[A-Za-z0-9]{16,}$/;

function problemOf(environment: Environment) {
  return (name: string, value: string): string | undefined => {
    switch (name) {
      case 'SecretKey':
        if (environment === 'SANDBOX')
          return SANDBOX_KEY.test(value) ? undefined : 'SecretKey must be a sandbox secret key (sk_sbox_…) for SANDBOX';
        return LIVE_KEY.test(value) ? undefined : 'SecretKey must be a live secret key (sk_…, not sk_sbox_…) for PRODUCTION';
      case 'ProcessingChannelId':
        return /^pc_[a-z0-9]{8,}$/i.test(value) ? undefined : 'ProcessingChannelId must be a processing channel id (pc_…)';
      case 'WebhookSecret':
        return /^[\x21-\x7e]{16,}$/.test(value)
          ? undefined
          : 'WebhookSecret must be the webhook secret key (16 or more printable characters)';
      default:
        return undefined;
    }
  };
}

/** Checkout.com (payments API): cards, stored instruments, notifications, 3-D Secure through its redirect. */
export const CHECKOUT: ProviderType = {
  type: 'checkout',
  displayName: 'Checkout.com',
  parameters: PARAMETERS,
  checkParameters: (parameters, environment) => readParameters(PARAMETERS, parameters, environment, problemOf(environment)),
  currencies: CHECKOUT_CURRENCIES,
  providerAmount: toCheckoutUnits,
  operations: new Set([...CARD_OPERATIONS, 'notifications', 'threeDsRedirect']),
  endpoint: (environment) => (environment === 'SANDBOX' ? 'https://api.sandbox.checkout.com' : 'https://api.checkout.com'),
  connector: ({ baseUrl, timeoutMs, parameters, now }) =>
    createCheckoutConnector({
      baseUrl,
      timeoutMs,
      secretKey: parameters.SecretKey ?? '',
      processingChannelId: parameters.ProcessingChannelId ?? '',
      // Without a WebhookSecret no notification is verified: accepted actions are confirmed by reading the payment.
      webhooks: Boolean(parameters.WebhookSecret),
      ...(now && { now }),
    }),
  notifications: CHECKOUT_NOTIFICATIONS,
};
