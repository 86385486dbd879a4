import { publicOperation } from '../../trpc';
import { clearedSessionCookie } from './session-cookie';
import { input, output } from './sign-out.schema';

/** Ends the session, if there still is one, and clears the cookie either way. */
export const signOut = publicOperation({}, input, output).mutation(async ({ ctx }) => {
  if (ctx.staff) await ctx.services.staff.signOut(ctx.staff.sessionId);
  ctx.response.cookies = [clearedSessionCookie(ctx.services.config.dashboardUrl)];
  return { signedOut: true as const };
});
