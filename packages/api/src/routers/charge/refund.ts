import { secretOperation } from '../../trpc';
import { input, meta, output, refundPathMeta } from './refund.schema';

export const refundOrVoid = secretOperation(meta, input, output).mutation(({ ctx, input: { chargeId, amount, comment } }) =>
  ctx.services.charges.refundOrVoid(ctx.account, chargeId, amount, comment, ctx.heldKey),
);

export const refund = secretOperation(refundPathMeta, input, output).mutation(({ ctx, input: { chargeId, amount, comment } }) =>
  ctx.services.charges.refund(ctx.account, chargeId, amount, comment, ctx.heldKey),
);
