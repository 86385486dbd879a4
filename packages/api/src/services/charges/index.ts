import type { Dependencies } from '../deps';
import { createAttemptRunner } from './attempts';
import { createCardCharging } from './create';
import { createDebitCharging } from './debits';
import { createChargeLifecycle } from './lifecycle';
import { createChargeRecovery } from './recovery';
import { createChargeSearch } from './search';
import { createStoredCharging, type StoredChargingDeps } from './stored';

export type { ChargeOrigin, TokenConsumer } from './stored';

export function createChargeService(deps: Dependencies, stored: Pick<StoredChargingDeps, 'vault' | 'tokens' | 'paymentMethods'>) {
  const runAttempts = createAttemptRunner(deps);
  const debits = createDebitCharging(deps);
  const lifecycle = createChargeLifecycle(deps);
  const recovery = createChargeRecovery(deps, lifecycle);
  return {
    createCardCharge: createCardCharging(deps, runAttempts),
    ...createStoredCharging(deps, { ...stored, runAttempts, debits }),
    search: createChargeSearch(deps),
    ...lifecycle,
    jobHandlers: { ...recovery.jobHandlers, ...debits.jobHandlers },
    sweepAbandoned: recovery.sweepAbandoned,
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
