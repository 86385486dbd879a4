import { staffOperation } from '../../trpc';
import { input, output } from './retry-delivery.schema';

/** One more attempt of a failed or waiting delivery, now: the same delivery, body and webhook-id (tRPC only). */
export const retryDelivery = staffOperation(input, output).mutation(({ ctx, input: { deliveryId } }) =>
  ctx.services.webhooks.retryDelivery(ctx.account, deliveryId),
);
