import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-bank-account.schema';

export const createWithBankAccount = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'bank_account', ...method }, ctx.heldKey),
);
