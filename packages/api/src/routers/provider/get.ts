import { secretOperation } from '../../trpc';
import { input, meta, output } from './get.schema';

export const get = secretOperation(meta, input, output).query(({ ctx, input: { providerId } }) =>
  ctx.services.providers.get(ctx.account, providerId),
);
