import { staffOperation } from '../../trpc';
import { input, output } from './rotate-signing-key.schema';

/** A new signing key: every delivery from now on, retries included, is signed with it (tRPC only). */
export const rotateSigningKey = staffOperation(input, output).mutation(async ({ ctx }) => ({
  signingKey: await ctx.services.webhooks.rotateSigningKey(ctx.account, `staff:${ctx.staff.userId}`),
}));
