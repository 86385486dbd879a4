import { browserOf } from '../../context';
import { publicKeyOperation } from '../../trpc';
import { input, meta, output } from './pay.schema';

export const pay = publicKeyOperation(meta, input, output).mutation(({ ctx, input: { paymentLinkId, token } }) =>
  ctx.services.paymentLinks.pay(ctx.account, paymentLinkId, token, { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
