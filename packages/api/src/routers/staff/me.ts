import { staffOperation } from '../../trpc';
import { input, output } from './me.schema';
import { staffView } from './staff.schema';

export const me = staffOperation(input, output).query(({ ctx }) => staffView(ctx.staff, ctx.account));
