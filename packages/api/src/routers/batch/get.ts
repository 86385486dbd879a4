import { secretOperation } from '../../trpc';
import { input, meta, output } from './get.schema';

export const get = secretOperation(meta, input, output).query(({ ctx, input: { batchId } }) =>
  ctx.services.batches.get(ctx.account, batchId),
);
