import { browserOf } from '../../context';
import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-least-cost.schema';

export const createLeastCost = secretOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createCardCharge(ctx.account, charge, 'least-cost', { heldKey: ctx.heldKey, browser: browserOf(ctx) }),
);
