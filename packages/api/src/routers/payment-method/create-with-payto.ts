import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-payto.schema';

export const createWithPayTo = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'payto', ...method }, ctx.heldKey),
);
