import { secretOperation } from '../../trpc';
import { input, meta, output, shortPathMeta } from './capture.schema';

export const capture = secretOperation(meta, input, output).mutation(({ ctx, input: { chargeId, amount } }) =>
  ctx.services.charges.capture(ctx.account, chargeId, amount, ctx.heldKey),
);

export const captureShortPath = secretOperation(shortPathMeta, input, output).mutation(({ ctx, input: { chargeId, amount } }) =>
  ctx.services.charges.capture(ctx.account, chargeId, amount, ctx.heldKey),
);
