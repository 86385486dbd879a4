import { secretOperation } from '../../trpc';
import { input, meta, output } from './create.schema';

export const create = secretOperation(meta, input, output).mutation(({ ctx, input: link }) =>
  ctx.services.paymentLinks.create(ctx.account, link, ctx.heldKey),
);
