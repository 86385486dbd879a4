import { browserOf } from '../../context';
import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-token.schema';

export const createWithToken = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createTokenCharge(ctx.account, charge, { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
