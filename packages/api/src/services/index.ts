import type { Account } from '@gateway/db';
import { createAccountService } from './accounts';
import { createBatchService } from './batches';
import { createChargeService } from './charges';
import { createCustomerService } from './customers';
import { createDashboardService } from './dashboard';
import type { Dependencies } from './deps';
import { createIdempotencyService, type KeyAnswers, type KeyedResource } from './idempotency';
import { createInfoService } from './info';
import { createCounters, DEFAULT_LIMITS, sweepExpiredLimits } from './limits';
import { createCardTestingGuard } from './limits/card-testing';
import { INTERNAL_CAPS, urgentLane } from './lanes';
import { createMaintenance } from './maintenance';
import { createPaymentLinkService } from './payment-links';
import { createPaymentMethodService } from './payment-methods';
import { cacheProviders } from './providers/provider-cache';
import { createProviderService } from './providers/provider-service';
import { createStaffService } from './staff';
import { createSubscriptionService } from './subscriptions';
import { createTokenService } from './tokens';
import { createVaultService } from './vault';
import { createWebhookService } from './webhooks';

export type { Clock, Dependencies, Logger, ServiceConfig } from './deps';
export { systemClock } from './deps';

/**
 * How an Idempotency-Key bound to something made in one transaction is answered: it is final from
 * then, so as it is now (services/idempotency.ts).
 */
const created =
  (view: (account: Account, id: string) => Promise<unknown>): KeyAnswers[KeyedResource] =>
  async (account, id) => ({ data: await view(account, id) });

/** Wires every service from its explicit dependencies. */
export function createServices(deps: Dependencies) {
  if (deps.notices) {
    cacheProviders(deps.db, deps.notices, (error) =>
      deps.logger.warn({ err: error }, 'provider change notices lost; providers are read from the database until they resume'),
    );
  }
  const webhooks = createWebhookService(deps);
  const vault = createVaultService(deps);
  const tokens = createTokenService(deps, vault);
  const paymentMethods = createPaymentMethodService(deps, { vault, tokens, webhooks });
  // A held payment staff settle reaches the batch row that made it: bound late, as batches need charges.
  const charges = createChargeService(deps, { vault, tokens, paymentMethods }, webhooks, (tx, chargeId) =>
    batches.recordSettledRow(tx, chargeId),
  );
  const counters = createCounters(deps.db, deps.config.limits ?? DEFAULT_LIMITS);
  const staff = createStaffService(deps, counters);
  const batches = createBatchService(deps, { charges, webhooks });
  const subscriptions = createSubscriptionService(deps, { charges, paymentMethods, webhooks });
  const customers = createCustomerService(deps, paymentMethods, webhooks);
  const providers = createProviderService(deps);
  const paymentLinks = createPaymentLinkService(deps, charges);
  const idempotency = createIdempotencyService(deps, {
    ...charges.keyAnswers,
    'payment-link-payment': paymentLinks.paymentAnswer,
    customer: created(customers.get),
    'payment-method': created(paymentMethods.get),
    token: created(tokens.issued),
    'vault-item': created(vault.created),
    provider: created(providers.created),
    'payment-link': created(paymentLinks.get),
    'webhook-subscription': created(webhooks.getSubscription),
    subscription: created(subscriptions.get),
    batch: created(batches.status),
  });
  const maintenance = createMaintenance(deps, [
    { name: 'abandoned charges', run: charges.sweepAbandoned },
    { name: 'idempotency keys', run: idempotency.sweep },
    { name: 'expired webhook deliveries', run: webhooks.expireDeliveries },
    { name: 'webhook events', run: webhooks.prune },
    { name: 'staff sessions', run: staff.sweep },
    { name: 'provider notifications', run: charges.notifications.sweep },
    { name: 'rate limits', run: () => sweepExpiredLimits(deps.db) },
  ]);
  return {
    config: deps.config,
    accounts: createAccountService(deps),
    charges,
    notifications: charges.notifications,
    idempotency,
    providers,
    info: createInfoService(deps),
    vault,
    tokens,
    paymentMethods,
    customers,
    paymentLinks,
    staff,
    cardTesting: createCardTestingGuard(deps, counters),
    subscriptions,
    batches,
    dashboard: createDashboardService(deps),
    webhooks,
    maintenance,
    /** Queues that run in lanes of their own (webhook deliveries, urgent work), for the gateway's worker. */
    jobLanes: [webhooks.jobLane, urgentLane],
    /** How the worker claims the rest of the internal work: fairly by account (lanes.ts). */
    jobCaps: INTERNAL_CAPS,
    /** Every background queue's handler, for the gateway's worker. */
    jobHandlers: {
      ...charges.jobHandlers,
      ...vault.jobHandlers,
      ...maintenance.jobHandlers,
      ...subscriptions.jobHandlers,
      ...batches.jobHandlers,
      ...webhooks.jobHandlers,
    },
  };
}

export type Services = ReturnType<typeof createServices>;
