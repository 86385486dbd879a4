import { secretOperation } from '../../trpc';
import { input, meta, output } from './create.schema';

export const create = secretOperation(meta, input, output).mutation(({ ctx, input: provider }) =>
  ctx.services.providers.add(ctx.account, provider, ctx.heldKey),
);
