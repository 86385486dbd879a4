import { createAccountService } from './accounts';
import { createChargeService } from './charges';
import type { Dependencies } from './deps';
import { createIdempotencyService } from './idempotency';
import { createMaintenance } from './maintenance';
import { createProviderService } from './providers/provider-service';
import { createTokenConsumer } from './tokens/consume';
import { createVaultService } from './vault';

export type { Clock, Dependencies, Logger, ServiceConfig } from './deps';
export { systemClock } from './deps';

/** Wires every service from its explicit dependencies. */
export function createServices(deps: Dependencies) {
  const vault = createVaultService(deps);
  const tokens = createTokenConsumer(deps);
  const charges = createChargeService(deps, { vault, tokens });
  const idempotency = createIdempotencyService(deps);
  const maintenance = createMaintenance(deps, [
    { name: 'abandoned charges', run: charges.sweepAbandoned },
    { name: 'idempotency keys', run: idempotency.sweep },
  ]);
  return {
    config: deps.config,
    accounts: createAccountService(deps),
    charges,
    idempotency,
    providers: createProviderService(deps),
    vault,
    maintenance,
    /** Every background queue's handler, for the gateway's worker. */
    jobHandlers: { ...charges.jobHandlers, ...vault.jobHandlers, ...maintenance.jobHandlers },
  };
}

export type Services = ReturnType<typeof createServices>;
