import { accountRouter } from './routers/account/router';
import { batchRouter } from './routers/batch/router';
import { chargeRouter } from './routers/charge/router';
import { customerRouter } from './routers/customer/router';
import { dashboardRouter } from './routers/dashboard/router';
import { infoRouter } from './routers/info/router';
import { paymentLinkRouter } from './routers/payment-link/router';
import { paymentMethodRouter } from './routers/payment-method/router';
import { providerRouter } from './routers/provider/router';
import { staffRouter } from './routers/staff/router';
import { subscriptionRouter } from './routers/subscription/router';
import { tokenRouter } from './routers/token/router';
import { vaultRouter } from './routers/vault/router';
import { versionRouter } from './routers/version/router';
import { webhookRouter } from './routers/webhook/router';
import { router } from './trpc';

export const appRouter = router({
  charge: chargeRouter,
  vault: vaultRouter,
  customer: customerRouter,
  paymentMethod: paymentMethodRouter,
  token: tokenRouter,
  provider: providerRouter,
  info: infoRouter,
  version: versionRouter,
  paymentLink: paymentLinkRouter,
  staff: staffRouter,
  account: accountRouter,
  dashboard: dashboardRouter,
  subscription: subscriptionRouter,
  webhook: webhookRouter,
  batch: batchRouter,
});

export type AppRouter = typeof appRouter;
