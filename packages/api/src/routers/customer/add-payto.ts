import { secretOperation } from '../../trpc';
import { input, meta, output } from './add-payto.schema';

export const addPayTo = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, setDefault, ...method } }) =>
  ctx.services.customers.addPaymentMethod(ctx.account, customerId, { kind: 'payto', ...method }, setDefault, ctx.heldKey),
);
