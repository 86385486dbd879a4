import { secretOperation } from '../../trpc';
import { input, meta, output } from './provider.schema';

export const provider = secretOperation(meta, input, output).query(({ ctx, input: { providerId } }) =>
  ctx.services.info.provider(ctx.account, providerId),
);
