import type { Dependencies } from '../deps';
import { createCardAccess } from './card-access';
import { createVaultErasure } from './erasure';
import { createVaultItems } from './items';

export type { VaultAccessReason } from './card-access';
export type { VaultCard, VaultExpiry } from './items';

/** The card vault (docs/vault.md). */
export function createVaultService(deps: Dependencies) {
  const erasure = createVaultErasure(deps);
  return {
    ...createVaultItems(deps),
    ...createCardAccess(deps, erasure),
    /** Handlers of the vault's background jobs, by queue, for the gateway's job worker. */
    jobHandlers: erasure.jobHandlers,
  };
}

export type VaultService = ReturnType<typeof createVaultService>;
