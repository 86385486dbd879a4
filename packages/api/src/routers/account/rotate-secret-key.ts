import { staffOperation } from '../../trpc';
import { input, output } from './rotate-secret-key.schema';

export const rotateSecretKey = staffOperation(input, output).mutation(async ({ ctx }) => {
  const { account, secretKey } = await ctx.services.accounts.rotateSecretKey(ctx.account, `staff:${ctx.staff.userId}`);
  return { secretKey, secretKeyHint: account.secretKeyHint };
});
