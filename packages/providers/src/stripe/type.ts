import {
  CARD_OPERATIONS,
  readParameters,
  type Environment,
  type ParameterCheck,
  type ParameterSpec,
  type ProviderType,
} from '../provider-type.js';
import { createStripeConnector } from './connector.js';
import { STRIPE_CURRENCIES, toStripeAmount } from './currencies.js';
import { STRIPE_NOTIFICATIONS } from './notifications.js';

const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{16,}$/;

const PARAMETERS: readonly ParameterSpec[] = [
  {
    name: 'SecretKey',
    required: true,
    secret: true,
    description: 'Secret key (sk_test_… for SANDBOX, sk_live_… for PRODUCTION) or a restricted key (rk_…)',
  },
  {
    name: 'WebhookSecret',
    required: false,
    secret: true,
    description: 'Signing secret of the webhook endpoint (whsec_…), to take Stripe events',
  },
];

/**
 * What is wrong with a Stripe parameter's value: `SecretKey` must be a secret (`sk_`) or restricted
 * (`rk_`) key of the environment's mode (test keys with SANDBOX, live keys with PRODUCTION), and
 * `WebhookSecret` the webhook endpoint's signing secret. Values are never repeated.
 */
const problemFor =
  (environment: Environment) =>
  (name: string, value: string): string | undefined => {
    const mode = environment === 'PRODUCTION' ? 'live' : 'test';
    if (name === 'WebhookSecret') return WEBHOOK_SECRET.test(value) ? undefined : 'Not a Stripe webhook signing secret (whsec_…)';
    if (!SECRET_KEY.test(value)) return 'Not a Stripe secret key (sk_…) or restricted key (rk_…)';
    return value.includes(`_${mode}_`) ? undefined : `A ${environment} provider needs a ${mode} key (sk_${mode}_… or rk_${mode}_…)`;
  };

/** Reads a Stripe provider's parameters (names in any case, values trimmed) as every type does, with the key-mode check. */
function checkParameters(given: Readonly<Record<string, string>>, environment: Environment): ParameterCheck {
  const trimmed = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, value.trim()]));
  return readParameters(PARAMETERS, trimmed, environment, problemFor(environment));
}

export const STRIPE: ProviderType = {
  type: 'stripe',
  displayName: 'Stripe',
  parameters: PARAMETERS,
  checkParameters,
  currencies: STRIPE_CURRENCIES,
  providerAmount: toStripeAmount,
  operations: new Set([...CARD_OPERATIONS, 'notifications', 'threeDsRedirect']),
  endpoint: () => 'https://api.stripe.com',
  connector: createStripeConnector,
  notifications: STRIPE_NOTIFICATIONS,
};
