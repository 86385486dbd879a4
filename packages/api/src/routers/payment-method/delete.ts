import { secretOperation } from '../../trpc';
import { input, meta, output } from './delete.schema';

export const remove = secretOperation(meta, input, output).mutation(({ ctx, input: { paymentMethodId, gatewayDelete } }) =>
  ctx.services.paymentMethods.remove(ctx.account, paymentMethodId, gatewayDelete),
);
