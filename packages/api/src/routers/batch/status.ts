import { secretOperation } from '../../trpc';
import { input, meta, output } from './status.schema';

export const status = secretOperation(meta, input, output).query(({ ctx, input: { batchId } }) =>
  ctx.services.batches.status(ctx.account, batchId),
);
