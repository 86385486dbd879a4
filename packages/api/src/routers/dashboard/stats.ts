import { staffOperation } from '../../trpc';
import { input, output } from './stats.schema';

/** Headline figures per currency, payment volume and success rate per provider and day (the staff member's), for the dashboard's home page. */
export const stats = staffOperation(input, output).query(({ ctx, input: { days, timeZone } }) =>
  ctx.services.dashboard.home(ctx.account, days, timeZone),
);
