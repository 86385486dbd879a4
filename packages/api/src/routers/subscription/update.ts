import { secretOperation } from '../../trpc';
import { input, meta, output } from './update.schema';

export const update = secretOperation(meta, input, output).mutation(({ ctx, input: { subscriptionId, ...changes } }) =>
  ctx.services.subscriptions.update(ctx.account, subscriptionId, changes),
);
