import { z } from 'zod';

/** Who is signed in: what the dashboard shows in its header. */
export const staffOutput = z.object({
  email: z.string(),
  name: z.string(),
  accountName: z.string(),
});
