import { toWireAmount, type BillingInterval, type RetryInterval, type RetryPolicy } from '@gateway/core';
import type { Subscription } from '@gateway/db';
import type { SubscriptionView } from '../../schemas/subscription';
import { requireCurrency } from '../money';

/** The webhook's credential is never answered: only whether there is one. */
const MASKED = '********';

export const retryOf = (s: Subscription): RetryPolicy | null =>
  s.retryMaximum === null
    ? null
    : { maximum: s.retryMaximum, interval: s.retryInterval as RetryInterval, frequency: s.retryFrequency ?? 1 };

export function toSubscriptionView(s: Subscription): SubscriptionView {
  const currency = requireCurrency(s.currency);
  // Kept as sealWebhook (services/webhooks) writes it: the authorization sealed, if there is one.
  const webhook = s.webhook as { url: string; sealedAuthorization?: unknown } | null;
  const hasEnd = s.endAfterCount !== null || s.endAfterAmount !== null || s.endAfterDate !== null;
  return {
    subscriptionId: s.id,
    paymentMethodId: s.paymentMethodId,
    amount: toWireAmount(s.amount, currency),
    currency: s.currency,
    interval: s.interval as BillingInterval,
    frequency: s.frequency,
    createdDate: s.createdDate.toISOString(),
    startDate: s.startDate.toISOString(),
    endAfter: hasEnd
      ? {
          amount: s.endAfterAmount === null ? null : toWireAmount(s.endAfterAmount, currency),
          count: s.endAfterCount,
          date: s.endAfterDate?.toISOString() ?? null,
        }
      : null,
    retry: retryOf(s),
    webhook: webhook && { url: webhook.url, authorization: webhook.sealedAuthorization ? MASKED : null },
    status: s.status,
    metadata: s.metadata as Record<string, string> | null,
  };
}
