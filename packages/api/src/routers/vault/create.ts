import { secretOperation } from '../../trpc';
import { input, meta, output } from './create.schema';

export const create = secretOperation(meta, input, output).mutation(({ ctx, input: item }) =>
  ctx.services.vault.create(ctx.account, item, ctx.heldKey),
);
