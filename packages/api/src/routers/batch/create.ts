import { secretOperation } from '../../trpc';
import { input, meta, output } from './create.schema';

export const create = secretOperation(meta, input, output).mutation(({ ctx, input: batch }) =>
  ctx.services.batches.create(ctx.account, batch, ctx.heldKey),
);
