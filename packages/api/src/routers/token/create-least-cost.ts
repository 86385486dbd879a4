import { publicKeyOperation } from '../../trpc';
import { input, meta, output } from './create-least-cost.schema';

export const createLeastCost = publicKeyOperation(meta, input, output).mutation(({ ctx, input: token }) =>
  ctx.services.tokens.createLeastCost(ctx.account, token, ctx.heldKey),
);
