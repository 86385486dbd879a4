import { secretOperation } from '../../trpc';
import { input, meta, output } from './create.schema';

export const create = secretOperation(meta, input, output).mutation(({ ctx, input: subscription }) =>
  ctx.services.subscriptions.create(ctx.account, subscription, ctx.heldKey),
);
