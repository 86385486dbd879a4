import { secretOperation } from '../../trpc';
import { input, meta, output } from './search.schema';

export const search = secretOperation(meta, input, output).query(({ ctx, input: query }) =>
  ctx.services.batches.search(ctx.account, query),
);
