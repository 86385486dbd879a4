import { browserOf } from '../../context';
import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-card.schema';

export const createWithCard = secretOperation(meta, input, output).mutation(({ ctx, input: { providerId, ...charge } }) =>
  ctx.services.charges.createCardCharge(ctx.account, charge, { providerId }, { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
