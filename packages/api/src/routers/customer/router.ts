import { router } from '../../trpc';
import { addBankAccount } from './add-bank-account';
import { addCard } from './add-card';
import { addPayTo } from './add-payto';
import { addToken } from './add-token';
import { createWithBankAccount } from './create-with-bank-account';
import { createWithCard } from './create-with-card';
import { createWithPayTo } from './create-with-payto';
import { createWithProviderToken } from './create-with-provider-token';
import { createWithSingleUseToken } from './create-with-single-use-token';
import { createWithToken } from './create-with-token';
import { get } from './get';
import { listPaymentMethods } from './list-payment-methods';
import { remove } from './delete';
import { search } from './search';
import { update } from './update';

export const customerRouter = router({
  createWithCard,
  createWithToken,
  createWithProviderToken,
  createWithSingleUseToken,
  createWithBankAccount,
  createWithPayTo,
  get,
  search,
  update,
  delete: remove,
  listPaymentMethods,
  addCard,
  addToken,
  addPayTo,
  addBankAccount,
});
