import { secretOperation } from '../../trpc';
import { input, meta, output } from './default-fallback-provider.schema';

export const defaultFallbackProvider = secretOperation(meta, input, output).query(({ ctx }) =>
  ctx.services.info.defaultFallbackProvider(ctx.account),
);
