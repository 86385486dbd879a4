import { secretOperation } from '../../trpc';
import { input, meta, output } from './delete.schema';

export const remove = secretOperation(meta, input, output).mutation(({ ctx, input: { providerId } }) =>
  ctx.services.providers.remove(ctx.account, providerId),
);
