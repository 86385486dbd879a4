import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-network-token.schema';

export const createWithNetworkToken = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createNetworkTokenCharge(ctx.account, charge, ctx.heldKey),
);
