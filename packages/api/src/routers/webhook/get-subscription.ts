import { secretOperation } from '../../trpc';
import { input, meta, output } from './get-subscription.schema';

export const getSubscription = secretOperation(meta, input, output).query(({ ctx, input: { webhookSubscriptionId } }) =>
  ctx.services.webhooks.getSubscription(ctx.account, webhookSubscriptionId),
);
