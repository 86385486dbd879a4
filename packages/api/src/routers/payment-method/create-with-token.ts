import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-token.schema';

export const createWithToken = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'token', ...method }, ctx.heldKey),
);
