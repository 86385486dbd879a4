import { staffOperation } from '../../trpc';
import { input, output } from './signing-key.schema';

/** The key that signs the account's webhook deliveries, for the dashboard (tRPC only). */
export const signingKey = staffOperation(input, output).query(async ({ ctx }) => ({
  signingKey: await ctx.services.webhooks.signingKey(ctx.account),
}));
