import { secretOperation } from '../../trpc';
import { input, meta, output } from './add-token.schema';

export const addToken = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, setDefault, ...method } }) =>
  ctx.services.customers.addPaymentMethod(ctx.account, customerId, { kind: 'token', ...method }, setDefault, ctx.heldKey),
);
