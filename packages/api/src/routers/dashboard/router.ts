import { router } from '../../trpc';
import { authenticationWait } from './authentication-wait';
import { checkProviderCredentials } from './check-credentials';
import { providerNotifications } from './provider-notifications';
import { simulatedLatency } from './simulated-latency';
import { stats } from './stats';
import { settleUnknownOutcome, unknownOutcomes } from './unknown-outcomes';
import { webhookEndpoints } from './webhook-endpoints';

/** Read models of the dashboard (tRPC only). */
export const dashboardRouter = router({
  stats,
  simulatedLatency,
  providerNotifications,
  checkProviderCredentials,
  webhookEndpoints,
  authenticationWait,
  unknownOutcomes,
  settleUnknownOutcome,
});
