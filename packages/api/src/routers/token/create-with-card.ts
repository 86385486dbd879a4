import { header } from '../../context';
import { publicKeyOperation } from '../../trpc';
import { input, meta, output } from './create-with-card.schema';

export const createWithCard = publicKeyOperation(meta, input, output).mutation(({ ctx, input: { providerId, ...token } }) =>
  ctx.services.tokens.createWithCard(ctx.account, token, providerId ?? (header(ctx, 'providerId') || undefined), ctx.heldKey),
);
