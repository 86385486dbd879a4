import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-subscription.schema';

export const createSubscription = secretOperation(meta, input, output).mutation(({ ctx, input: subscription }) =>
  ctx.services.webhooks.createSubscription(ctx.account, subscription, ctx.heldKey),
);
