import { secretOperation } from '../../trpc';
import { input, meta, output } from './list-payment-methods.schema';

export const listPaymentMethods = secretOperation(meta, input, output).query(({ ctx, input: { customerId } }) =>
  ctx.services.customers.listPaymentMethods(ctx.account, customerId),
);
