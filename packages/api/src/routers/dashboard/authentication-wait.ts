import { staffOperation } from '../../trpc';
import { input, output } from './authentication-wait.schema';

/** Since when a PENDING charge waits for its payer's 3-D Secure authentication, for the charge's page. */
export const authenticationWait = staffOperation(input, output).query(({ ctx, input: { chargeId } }) =>
  ctx.services.dashboard.authenticationWait(ctx.account, chargeId),
);
