import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-card.schema';

export const createWithCard = secretOperation(meta, input, output).mutation(({ ctx, input: customer }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'card', ...customer }, ctx.heldKey),
);
