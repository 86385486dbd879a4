import { router } from '../../trpc';
import { create } from './create';
import { remove } from './delete';
import { get } from './get';
import { list } from './list';
import { update } from './update';

export const providerRouter = router({
  create,
  list,
  get,
  update,
  delete: remove,
});
