import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-payto.schema';

/** The request's webhook serves the customer and the agreement it makes, as for every other /customer/… create. */
export const createWithPayTo = secretOperation(meta, input, output).mutation(({ ctx, input: { payToAgreement, ...customer } }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'payto', webhook: customer.webhook, ...payToAgreement }, ctx.heldKey),
);
