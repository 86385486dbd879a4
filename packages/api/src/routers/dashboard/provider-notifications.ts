import { staffOperation } from '../../trpc';
import { input, output } from './provider-notifications.schema';

/** Captures, voids and refunds a provider failed by notification, or whose notification is overdue (docs/operations.md). */
export const providerNotifications = staffOperation(input, output).query(({ ctx, input: given }) =>
  ctx.services.notifications.attention(ctx.account, given?.providerId),
);
