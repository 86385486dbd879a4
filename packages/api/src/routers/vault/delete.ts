import { secretOperation } from '../../trpc';
import { input, meta, output } from './delete.schema';

export const remove = secretOperation(meta, input, output).mutation(({ ctx, input: { vaultId } }) =>
  ctx.services.vault.remove(ctx.account, vaultId),
);
