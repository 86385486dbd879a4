import { createAccountService } from './accounts';
import { createChargeService } from './charges';
import type { Dependencies } from './deps';
import { createIdempotencyService } from './idempotency';
import { createProviderService } from './providers/provider-service';
import { createVaultService } from './vault';

export type { Clock, Dependencies, Logger, ServiceConfig } from './deps';
export { systemClock } from './deps';

/** Wires every service from its explicit dependencies. */
export function createServices(deps: Dependencies) {
  return {
    config: deps.config,
    accounts: createAccountService(deps),
    charges: createChargeService(deps),
    idempotency: createIdempotencyService(deps),
    providers: createProviderService(deps),
    vault: createVaultService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
