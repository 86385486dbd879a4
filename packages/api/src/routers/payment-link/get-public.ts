import { publicOperation } from '../../trpc';
import { input, meta, output } from './get-public.schema';

export const getPublic = publicOperation(meta, input, output).query(({ ctx, input: { paymentLinkId } }) =>
  ctx.services.paymentLinks.publicView(paymentLinkId),
);
