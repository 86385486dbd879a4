import { router } from '../../trpc';
import { capture, captureShortPath } from './capture';
import { createForCustomer } from './create-for-customer';
import { createLeastCost } from './create-least-cost';
import { createWithApplePay } from './create-with-apple-pay';
import { createWithBankAccount } from './create-with-bank-account';
import { createWithCard } from './create-with-card';
import { createWithNetworkToken } from './create-with-network-token';
import { createWithPaymentMethod } from './create-with-payment-method';
import { createWithToken } from './create-with-token';
import { get } from './get';
import { refund, refundOrVoid } from './refund';
import { search } from './search';
import { voidCharge } from './void';

export const chargeRouter = router({
  createWithCard,
  createLeastCost,
  createWithToken,
  createWithPaymentMethod,
  createForCustomer,
  createWithBankAccount,
  createWithNetworkToken,
  createWithApplePay,
  get,
  search,
  capture,
  captureShortPath,
  void: voidCharge,
  refundOrVoid,
  refund,
});
