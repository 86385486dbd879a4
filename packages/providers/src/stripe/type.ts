import { CARD_OPERATIONS, type Environment, type ParameterCheck, type ProviderType } from '../provider-type.js';
import { createStripeConnector } from './connector.js';
import { STRIPE_CURRENCIES, toStripeAmount } from './currencies.js';
import { STRIPE_NOTIFICATIONS } from './notifications.js';

const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{16,}$/;

/**
 * Reads a Stripe provider's parameters: `SecretKey`, a secret (`sk_`) or restricted (`rk_`) key of
 * the environment's mode (test keys with SANDBOX, live keys with PRODUCTION), and optionally the
 * webhook endpoint's `WebhookSecret`. Names are matched in any case; values are never repeated.
 */
function checkParameters(given: Readonly<Record<string, string>>, environment: Environment): ParameterCheck {
  const parameters: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const canonical = STRIPE.parameters.find((p) => p.name.toLowerCase() === name.toLowerCase())?.name;
    if (canonical) parameters[canonical] = value.trim();
    else problems[name] = 'Not a parameter of stripe providers (SecretKey, WebhookSecret)';
  }
  const mode = environment === 'PRODUCTION' ? 'live' : 'test';
  const key = parameters.SecretKey;
  if (!key) problems.SecretKey = 'Required: the Stripe secret key (sk_…) or restricted key (rk_…)';
  else if (!SECRET_KEY.test(key)) problems.SecretKey = 'Not a Stripe secret key (sk_…) or restricted key (rk_…)';
  else if (!key.includes(`_${mode}_`)) problems.SecretKey = `A ${environment} provider needs a ${mode} key (sk_${mode}_… or rk_${mode}_…)`;
  const webhook = parameters.WebhookSecret;
  if (webhook !== undefined && !WEBHOOK_SECRET.test(webhook)) problems.WebhookSecret = 'Not a Stripe webhook signing secret (whsec_…)';
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, parameters };
}

export const STRIPE: ProviderType = {
  type: 'stripe',
  displayName: 'Stripe',
  parameters: [
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
  ],
  checkParameters,
  currencies: STRIPE_CURRENCIES,
  providerAmount: toStripeAmount,
  operations: new Set([...CARD_OPERATIONS, 'notifications']),
  endpoint: () => 'https://api.stripe.com',
  connector: createStripeConnector,
  notifications: STRIPE_NOTIFICATIONS,
};
