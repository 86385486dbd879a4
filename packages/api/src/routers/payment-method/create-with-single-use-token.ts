import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-single-use-token.schema';

export const createWithSingleUseToken = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'single_use_token', ...method }, ctx.heldKey),
);
