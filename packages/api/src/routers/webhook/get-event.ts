import { secretOperation } from '../../trpc';
import { input, meta, output } from './get-event.schema';

export const getEvent = secretOperation(meta, input, output).query(({ ctx, input: { messageId } }) =>
  ctx.services.webhooks.event(ctx.account, messageId),
);
