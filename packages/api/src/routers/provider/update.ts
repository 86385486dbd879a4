import { secretOperation } from '../../trpc';
import { input, meta, output } from './update.schema';

export const update = secretOperation(meta, input, output).mutation(({ ctx, input: { providerId, ...changes } }) =>
  ctx.services.providers.update(ctx.account, providerId, changes),
);
