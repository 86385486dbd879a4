import { browserOf } from '../../context';
import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-for-customer.schema';

export const createForCustomer = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createCustomerCharge(ctx.account, charge, { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
