import { browserOf } from '../../context';
import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-payment-method.schema';

export const createWithPaymentMethod = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createPaymentMethodCharge(ctx.account, charge, { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
