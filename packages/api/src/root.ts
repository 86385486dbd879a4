import { chargeRouter } from './routers/charge/router';
import { router } from './trpc';

export const appRouter = router({
  charge: chargeRouter,
});

export type AppRouter = typeof appRouter;
