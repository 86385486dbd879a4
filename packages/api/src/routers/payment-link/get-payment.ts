import { publicKeyOperation } from '../../trpc';
import { input, meta, output } from './get-payment.schema';

export const getPayment = publicKeyOperation(meta, input, output).query(({ ctx, input: { paymentLinkId, chargeId } }) =>
  ctx.services.paymentLinks.payment(ctx.account, paymentLinkId, chargeId),
);
