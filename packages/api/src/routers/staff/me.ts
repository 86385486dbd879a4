import { staffOperation } from '../../trpc';
import { input, output } from './me.schema';

export const me = staffOperation(input, output).query(({ ctx }) => ({
  email: ctx.staff.email,
  name: ctx.staff.name,
  accountName: ctx.account.name,
}));
