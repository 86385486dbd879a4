import { secretOperation } from '../../trpc';
import { input, meta, output } from './void.schema';

export const voidCharge = secretOperation(meta, input, output).mutation(({ ctx, input: { chargeId } }) =>
  ctx.services.charges.void(ctx.account, chargeId, ctx.heldKey),
);
