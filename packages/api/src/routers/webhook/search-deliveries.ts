import { secretOperation } from '../../trpc';
import { input, meta, output } from './search-deliveries.schema';

export const searchDeliveries = secretOperation(meta, input, output).query(({ ctx, input: query }) =>
  ctx.services.webhooks.searchDeliveries(ctx.account, query),
);
