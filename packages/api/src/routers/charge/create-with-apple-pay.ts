import { ApiError } from '@gateway/core';
import { header } from '../../context';
import { byPublicKey, eitherKeyOperation } from '../../trpc';
import { input, meta, output } from './create-with-apple-pay.schema';

/** With the public key, only when the account takes such charges, and up to its cap in AUD (docs/operations.md). */
export const createWithApplePay = eitherKeyOperation(meta, input, output).mutation(({ ctx, input: charge }) => {
  const { account } = ctx;
  const publicKey = byPublicKey(ctx);
  if (publicKey && !account.publicWalletCharges) {
    throw new ApiError('AuthenticationAuthorizationError', { message: 'This account takes no wallet charges made with the public key' });
  }
  const cap = publicKey ? (account.publicWalletMaxAmount ?? undefined) : undefined;
  return ctx.services.charges.createWalletCharge(account, charge, header(ctx, 'providerId') || undefined, cap, ctx.heldKey);
});
