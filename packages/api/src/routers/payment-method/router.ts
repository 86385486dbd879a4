import { router } from '../../trpc';
import { createFromVault } from './create-from-vault';
import { createWithBankAccount } from './create-with-bank-account';
import { createWithCard } from './create-with-card';
import { createWithPayTo } from './create-with-payto';
import { createWithProviderToken } from './create-with-provider-token';
import { createWithSingleUseToken } from './create-with-single-use-token';
import { createWithToken } from './create-with-token';
import { get } from './get';
import { remove } from './delete';
import { search } from './search';
import { update } from './update';

export const paymentMethodRouter = router({
  createWithCard,
  createWithToken,
  createFromVault,
  createWithProviderToken,
  createWithSingleUseToken,
  createWithBankAccount,
  createWithPayTo,
  get,
  search,
  update,
  delete: remove,
});
