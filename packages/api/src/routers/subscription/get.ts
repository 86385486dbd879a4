import { secretOperation } from '../../trpc';
import { input, meta, output } from './get.schema';

export const get = secretOperation(meta, input, output).query(({ ctx, input: { subscriptionId } }) =>
  ctx.services.subscriptions.get(ctx.account, subscriptionId),
);
