import { router } from '../../trpc';
import { createLeastCost } from './create-least-cost';
import { createWithCard } from './create-with-card';
import { get } from './get';
import { search } from './search';

export const tokenRouter = router({
  createWithCard,
  createLeastCost,
  get,
  search,
});
