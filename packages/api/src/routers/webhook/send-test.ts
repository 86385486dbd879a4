import { staffOperation } from '../../trpc';
import { input, output } from './send-test.schema';

/** Sends one of the account's subscriptions a test event, through the delivery jobs (tRPC only). */
export const sendTest = staffOperation(input, output).mutation(({ ctx, input: { webhookSubscriptionId } }) =>
  ctx.services.webhooks.sendTest(ctx.account, webhookSubscriptionId),
);
