/** Helpers for the Stripe connector's tests against the fake Stripe. */
import { startFakeStripe, type FakeStripe, type FakeStripeOptions } from '@gateway/provider-fakes';
import type { ProviderConnector } from '../connector.js';
import { STRIPE } from './type.js';

export async function startStripe(
  options: FakeStripeOptions & { timeoutMs?: number } = {},
): Promise<{ fake: FakeStripe; connector: ProviderConnector }> {
  const fake = await startFakeStripe(options);
  return { fake, connector: connectorTo(fake.url, fake.secretKey, options.timeoutMs) };
}

export function connectorTo(baseUrl: string, secretKey: string, timeoutMs = 10_000): ProviderConnector {
  return STRIPE.connector({ baseUrl, timeoutMs, environment: 'SANDBOX', parameters: { SecretKey: secretKey } });
}

/** The journal entries of one operation at the fake (e.g. 'post /v1/payment_intents'). */
export function received(fake: FakeStripe, operation: string) {
  const [method, template] = operation.split(' ');
  return fake.requests.filter((r) => r.method === method?.toUpperCase() && r.operation === template);
}
