import { secretOperation } from '../../trpc';
import { input, meta, output } from './providers.schema';

export const providers = secretOperation(meta, input, output).query(({ ctx, input: query }) =>
  ctx.services.info.providers(ctx.account, query),
);
