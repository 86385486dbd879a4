import { z } from 'zod';

/** Who is signed in: what the dashboard shows in its header, and the account's currency for its forms. */
export const staffOutput = z.object({
  email: z.string(),
  name: z.string(),
  accountName: z.string(),
  defaultCurrency: z.string().meta({ description: "The account's currency when none is given" }),
});

export function staffView(
  staff: { email: string; name: string },
  account: { name: string; defaultCurrency: string },
): z.infer<typeof staffOutput> {
  return { email: staff.email, name: staff.name, accountName: account.name, defaultCurrency: account.defaultCurrency };
}
