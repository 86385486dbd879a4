import { router } from '../../trpc';
import { capture, captureShortPath } from './capture';
import { createLeastCost } from './create-least-cost';
import { createWithCard } from './create-with-card';
import { get } from './get';
import { refund, refundOrVoid } from './refund';
import { search } from './search';
import { voidCharge } from './void';

export const chargeRouter = router({
  createWithCard,
  createLeastCost,
  get,
  search,
  capture,
  captureShortPath,
  void: voidCharge,
  refundOrVoid,
  refund,
});
