import { secretOperation } from '../../trpc';
import { input, meta, output } from './update-status.schema';

export const updateStatus = secretOperation(meta, input, output).mutation(({ ctx, input: { subscriptionId, status } }) =>
  ctx.services.subscriptions.setStatus(ctx.account, subscriptionId, status),
);
