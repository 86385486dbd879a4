import { secretOperation } from '../../trpc';
import { input, meta, output } from './create-with-payto.schema';

export const createWithPayTo = secretOperation(meta, input, output).mutation(({ ctx, input: { payToAgreement, ...customer } }) =>
  ctx.services.customers.create(ctx.account, customer, { kind: 'payto', ...payToAgreement }),
);
