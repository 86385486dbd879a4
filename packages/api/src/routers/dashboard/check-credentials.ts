import { staffOperation } from '../../trpc';
import { input, output } from './check-credentials.schema';

/** The provider page's "check credentials": one harmless authenticated call to the provider. */
export const checkProviderCredentials = staffOperation(input, output).mutation(({ ctx, input: { providerId } }) =>
  ctx.services.dashboard.checkCredentials(ctx.account, providerId),
);
