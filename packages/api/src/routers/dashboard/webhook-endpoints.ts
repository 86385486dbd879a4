import { staffOperation } from '../../trpc';
import { input, output } from './webhook-endpoints.schema';

/** The account's webhook subscriptions and whether each endpoint is failing (and backing off). */
export const webhookEndpoints = staffOperation(input, output).query(({ ctx }) => ctx.services.webhooks.endpoints(ctx.account));
