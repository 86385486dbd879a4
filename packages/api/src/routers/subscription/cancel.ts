import { secretOperation } from '../../trpc';
import { input, meta, output } from './cancel.schema';

export const cancel = secretOperation(meta, input, output).mutation(({ ctx, input: { subscriptionId } }) =>
  ctx.services.subscriptions.setStatus(ctx.account, subscriptionId, 'Cancelled'),
);
