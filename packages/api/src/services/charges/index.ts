import type { Dependencies } from '../deps';
import type { WebhookService } from '../webhooks';
import { createAttemptRunner } from './attempts';
import { createCardCharging } from './create';
import { createDebitCharging } from './debits';
import { createChargeEvents } from './events';
import { createNotificationService } from '../notifications';
import { createChargeLifecycle } from './lifecycle';
import { createChargeRecovery } from './recovery';
import { createChargeSearch } from './search';
import { createStoredCharging, type StoredChargingDeps } from './stored';

export type { ChargeOrigin, TokenConsumer } from './stored';

export function createChargeService(
  deps: Dependencies,
  stored: Pick<StoredChargingDeps, 'vault' | 'tokens' | 'paymentMethods'>,
  webhooks: Pick<WebhookService, 'record' | 'listens'>,
) {
  const events = createChargeEvents(deps, webhooks);
  const notifications = createNotificationService(deps, events);
  const attempts = createAttemptRunner(deps, events, notifications);
  const debits = createDebitCharging(deps, events);
  const lifecycle = createChargeLifecycle(deps, events, notifications);
  const recovery = createChargeRecovery(deps, lifecycle, events);
  return {
    createCardCharge: createCardCharging(deps, attempts),
    ...createStoredCharging(deps, { ...stored, attempts, debits }),
    search: createChargeSearch(deps),
    ...lifecycle,
    notifications,
    settleCharges: attempts.settleCharges,
    jobHandlers: { ...recovery.jobHandlers, ...debits.jobHandlers },
    sweepAbandoned: recovery.sweepAbandoned,
    /** How Idempotency-Keys bound to charges and their changes are answered (services/idempotency.ts). */
    keyAnswers: { charge: recovery.chargeAnswer, ...lifecycle.keyAnswers },
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
