import { secretOperation } from '../../trpc';
import { input, meta, output } from './list.schema';

export const list = secretOperation(meta, input, output).query(({ ctx, input: paging }) =>
  ctx.services.providers.list(ctx.account, paging),
);
