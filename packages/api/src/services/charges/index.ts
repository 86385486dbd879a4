import type { Dependencies } from '../deps';
import { createCardCharging } from './create';
import { createChargeLifecycle } from './lifecycle';
import { createChargeSearch } from './search';

export function createChargeService(deps: Dependencies) {
  return {
    createCardCharge: createCardCharging(deps),
    search: createChargeSearch(deps),
    ...createChargeLifecycle(deps),
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
