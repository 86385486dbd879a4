import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-token.schema';

export const createWithToken = secretOperation(meta, input, output).mutation(({ ctx, input: customer }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'token', ...customer }, ctx.heldKey),
);
