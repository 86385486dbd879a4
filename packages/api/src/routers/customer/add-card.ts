import { secretOperation } from '../../trpc';
import { input, meta, output } from './add-card.schema';

export const addCard = secretOperation(meta, input, output).mutation(({ ctx, input: { customerId, setDefault, ...method } }) =>
  ctx.services.customers.addPaymentMethod(ctx.account, customerId, { kind: 'card', ...method }, setDefault, ctx.heldKey),
);
