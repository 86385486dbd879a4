import { secretOperation } from '../../trpc';
import { input, meta, output } from './delete.schema';

export const remove = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, gatewayDelete } }) =>
  ctx.services.customers.remove(ctx.account, customerId, gatewayDelete),
);
