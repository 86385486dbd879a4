import { publicOperation } from '../../trpc';
import { sessionCookie } from './session-cookie';
import { input, output } from './sign-in.schema';
import { staffView } from './staff.schema';

export const signIn = publicOperation({}, input, output).mutation(async ({ ctx, input: { email, password } }) => {
  const { token, expiresAt, staff, account } = await ctx.services.staff.signIn(email, password, ctx.request.clientAddress);
  ctx.response.cookies = [sessionCookie(token, expiresAt, ctx.services.config.dashboardUrl)];
  return staffView(staff, account);
});
