import type { Dependencies } from '../deps';
import type { WebhookService } from '../webhooks';
import { createAttemptRunner } from './attempts';
import { createCardCharging } from './create';
import { createDebitCharging } from './debits';
import { createChargeEvents } from './events';
import { createNotificationService, type AuthorisationListener } from '../notifications';
import { createChargeLifecycle } from './lifecycle';
import { createAbandonedRecovery, createChargeRecovery } from './recovery';
import { createChargeSearch } from './search';
import { createStoredCharging, type StoredChargingDeps } from './stored';
import { createThreeDs } from './three-d-secure';
import { createUnknownOutcomes, createUnknownOutcomeSettling, type SettledPaymentListener } from './unknown-outcomes';

export type { ChargeOrigin, TokenConsumer } from './stored';

export function createChargeService(
  deps: Dependencies,
  stored: Pick<StoredChargingDeps, 'vault' | 'tokens' | 'paymentMethods'>,
  webhooks: Pick<WebhookService, 'record' | 'listens'>,
  paymentSettled: SettledPaymentListener,
) {
  const events = createChargeEvents(deps, webhooks);
  // Notifications complete charges waiting for 3-D Secure, which keep modifications with them: bound late.
  const authorisations: AuthorisationListener = { notified: (...args) => threeDs.notified(...args) };
  const notifications = createNotificationService(deps, events, authorisations);
  const threeDs = createThreeDs(deps, events, notifications);
  const unknownOutcomes = createUnknownOutcomes(deps);
  const attempts = createAttemptRunner(deps, events, notifications, threeDs, unknownOutcomes);
  const debits = createDebitCharging(deps, events);
  const lifecycle = createChargeLifecycle(deps, events, notifications, unknownOutcomes);
  const abandoned = createAbandonedRecovery(deps, events, unknownOutcomes);
  const recovery = createChargeRecovery(deps, lifecycle, abandoned, unknownOutcomes);
  const settling = createUnknownOutcomeSettling(deps, {
    payment: abandoned.settleHeldPayment,
    operation: lifecycle.settleHeld,
    paymentSettled,
  });
  return {
    createCardCharge: createCardCharging(deps, attempts),
    ...createStoredCharging(deps, { ...stored, attempts, debits, abandoned }),
    search: createChargeSearch(deps),
    ...lifecycle,
    notifications,
    settleCharges: attempts.settleCharges,
    threeDs,
    /** Calls held for staff, their outcome unknown at the provider (unknown-outcomes.ts). */
    unknownOutcomes: settling,
    jobHandlers: { ...recovery.jobHandlers, ...debits.jobHandlers, ...threeDs.jobHandlers },
    sweepAbandoned: recovery.sweepAbandoned,
    /** How Idempotency-Keys bound to charges and their changes are answered (services/idempotency.ts). */
    keyAnswers: { charge: recovery.chargeAnswer, ...lifecycle.keyAnswers },
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
