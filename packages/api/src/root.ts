import { chargeRouter } from './routers/charge/router';
import { vaultRouter } from './routers/vault/router';
import { router } from './trpc';

export const appRouter = router({
  charge: chargeRouter,
  vault: vaultRouter,
});

export type AppRouter = typeof appRouter;
