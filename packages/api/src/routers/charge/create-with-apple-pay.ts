import { header } from '../../context';
import { eitherKeyOperation } from '../../trpc';
import { input, meta, output } from './create-with-apple-pay.schema';

export const createWithApplePay = eitherKeyOperation(meta, input, output).mutation(({ ctx, input: charge }) =>
  ctx.services.charges.createWalletCharge(ctx.account, charge, header(ctx, 'providerId') || undefined),
);
