import { secretOperation } from '../../trpc';
import { input, meta, output } from './provider-for-token.schema';

export const providerForToken = secretOperation(meta, input, output).query(({ ctx, input: { token } }) =>
  ctx.services.info.providerForToken(ctx.account, token),
);
