import { ApiError } from '@gateway/core';
import { header } from '../../context';
import { byPublicKey, eitherKeyOperation } from '../../trpc';
import { input, meta, output } from './create-with-apple-pay.schema';

/** With the public key, only when the account takes such charges, and up to its cap (docs/operations.md). */
export const createWithApplePay = eitherKeyOperation(meta, input, output).mutation(({ ctx, input: charge }) => {
  const { account } = ctx;
  if (byPublicKey(ctx)) {
    if (!account.publicWalletCharges) {
      throw new ApiError('AuthenticationAuthorizationError', { message: 'This account takes no wallet charges made with the public key' });
    }
    const max = account.publicWalletMaxAmount;
    if (max !== null && Number(charge.amount) > max) {
      throw new ApiError('AmountTooLarge', { message: `A wallet charge made with the public key may be at most ${max}` });
    }
  }
  return ctx.services.charges.createWalletCharge(account, charge, header(ctx, 'providerId') || undefined);
});
