import { secretOperation } from '../../trpc';
import { input, meta, output } from './add-bank-account.schema';

export const addBankAccount = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, setDefault, ...method } }) =>
  ctx.services.customers.addPaymentMethod(ctx.account, customerId, { kind: 'bank_account', ...method }, setDefault, ctx.heldKey),
);
