import { secretOperation } from '../../trpc';
import { input, meta, output } from './update.schema';

export const update = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, ...changes } }) =>
  ctx.services.customers.update(ctx.account, customerId, changes),
);
