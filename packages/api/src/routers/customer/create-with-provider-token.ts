import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-provider-token.schema';

export const createWithProviderToken = secretOperation(meta, input, output).mutation(({ ctx, input: customer }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'provider_token', ...customer }, ctx.heldKey),
);
