import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-bank-account.schema';

export const createWithBankAccount = secretOperation(meta, input, output).mutation(({ ctx, input: customer }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'bank_account', ...customer }, ctx.heldKey),
);
