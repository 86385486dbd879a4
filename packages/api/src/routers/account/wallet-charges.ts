import type { Account } from '@gateway/db';
import { z } from 'zod';
import { staffOperation } from '../../trpc';
import { walletCharges } from './wallet-charges.schema';

const view = (account: Account) => ({ enabled: account.publicWalletCharges, maxAmount: account.publicWalletMaxAmount });

/** Whether the hosted page's wallet charges are taken with the public key, and up to which amount. */
export const walletChargeSettings = staffOperation(z.void(), walletCharges).query(({ ctx }) => view(ctx.account));

export const setWalletChargeSettings = staffOperation(walletCharges, walletCharges).mutation(async ({ ctx, input }) =>
  view(await ctx.services.accounts.setPublicWalletCharges(ctx.account, input)),
);
