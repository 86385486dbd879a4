import { secretOperation } from '../../trpc';
import { input, meta, output } from './delete-subscription.schema';

export const removeSubscription = secretOperation(meta, input, output).mutation(({ ctx, input: { webhookSubscriptionId } }) =>
  ctx.services.webhooks.removeSubscription(ctx.account, webhookSubscriptionId),
);
