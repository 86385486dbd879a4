import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-provider-token.schema';

export const createWithProviderToken = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'provider_token', ...method }, ctx.heldKey),
);
