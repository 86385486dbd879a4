import { secretOperation } from '../../trpc';
import { input, meta, output } from './search-subscriptions.schema';

export const searchSubscriptions = secretOperation(meta, input, output).query(({ ctx, input: query }) =>
  ctx.services.webhooks.searchSubscriptions(ctx.account, query),
);
