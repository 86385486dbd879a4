import type { Dependencies } from '../deps';
import { createAttemptRunner } from './attempts';
import { createCardCharging } from './create';
import { createChargeLifecycle } from './lifecycle';
import { createChargeRecovery } from './recovery';
import { createChargeSearch } from './search';

export function createChargeService(deps: Dependencies) {
  const lifecycle = createChargeLifecycle(deps);
  const { jobHandlers, sweepAbandoned } = createChargeRecovery(deps, lifecycle);
  return {
    createCardCharge: createCardCharging(deps, createAttemptRunner(deps)),
    search: createChargeSearch(deps),
    ...lifecycle,
    jobHandlers,
    sweepAbandoned,
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
