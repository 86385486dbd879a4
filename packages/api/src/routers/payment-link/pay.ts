import { browserOf } from '../../context';
import { publicKeyOperation } from '../../trpc';
import { input, meta, output } from './pay.schema';

export const pay = publicKeyOperation(meta, input, output).mutation(({ ctx, input: { paymentLinkId, token, browserInfo, email } }) =>
  ctx.services.paymentLinks.pay(ctx.account, paymentLinkId, token, {
    heldKey: ctx.heldKey,
    email,
    // What the hosted page read of the payer's browser, the request's headers for the rest.
    browser: { ...browserOf(ctx), ...browserInfo },
  }),
);
