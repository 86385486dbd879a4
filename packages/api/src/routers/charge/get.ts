import { secretOperation } from '../../trpc';
import { input, meta, output } from './get.schema';

export const get = secretOperation(meta, input, output).query(({ ctx, input: { chargeId } }) =>
  ctx.services.charges.get(ctx.account, chargeId),
);
