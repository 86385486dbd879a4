import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-single-use-token.schema';

export const createWithSingleUseToken = secretOperation(meta, input, output).mutation(({ ctx, input: customer }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'single_use_token', ...customer }, ctx.heldKey),
);
