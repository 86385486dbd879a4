import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-bank-account.schema';

export const createWithBankAccount = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createBankAccountCharge(ctx.account, charge, ctx.heldKey),
);
