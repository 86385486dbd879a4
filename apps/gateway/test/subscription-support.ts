import { expect } from 'vitest';
import { card, CHEAP_DOMESTIC, VISA, type TestAccount } from './harness';

/** An acquirer the gateway waits for long enough that a busy test machine never times a payment out. */
export const STEADY = { ...CHEAP_DOMESTIC, name: 'Steady', timeoutMs: 10_000 };

/** What the subscription tests do over REST, for one account. */
export function subscriptionsOf(account: TestAccount) {
  /** A card saved as a payment method, at the account's first provider unless told. */
  async function savedCard(number = VISA, providerId = account.providerIds[0]) {
    const { status, body } = await account.api.post('/payment_method/card', { providerId, paymentInformation: card(number) });
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  }

  /** A subscription of 10 a day (unless `fields` say otherwise), on a new saved card unless one is given. */
  async function subscribe(fields: Record<string, unknown>) {
    const method = fields.paymentMethodId ? undefined : await savedCard();
    const { status, body } = await account.api.post('/subscription/payment_method', {
      paymentMethodId: method?.paymentMethodId,
      amount: 10,
      interval: 'Day',
      frequency: 1,
      ...fields,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return { id: String(body.subscriptionId), body, method };
  }

  /** The subscription's charges, oldest first. */
  async function chargesOf(subscriptionId: string) {
    const { body } = await account.api.get<{ charges: Array<Record<string, unknown>> }>(
      `/charge?SubscriptionId=${subscriptionId}&Limit=100`,
    );
    return body.charges.reverse();
  }

  const statusOf = async (id: string) => (await account.api.get(`/subscription/${id}`)).body.status;

  const setStatus = (id: string, status: unknown) => account.api.put(`/subscription/${id}/status`, { status });

  return { savedCard, subscribe, chargesOf, statusOf, setStatus };
}
