import { secretOperation } from '../../trpc';
import { input, meta, output } from './update.schema';

export const update = secretOperation(meta, input, output).mutation(({ ctx, input: { paymentMethodId, ...changes } }) =>
  ctx.services.paymentMethods.update(ctx.account, paymentMethodId, changes),
);
