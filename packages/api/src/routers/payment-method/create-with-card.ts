import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-card.schema';

export const createWithCard = secretOperation(meta, input, output).mutation(({ ctx, input: method }) =>
  ctx.services.paymentMethods.create(ctx.account, { kind: 'card', ...method }, ctx.heldKey),
);
