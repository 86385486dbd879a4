import { router } from '../../trpc';
import { create } from './create';
import { remove } from './delete';
import { get } from './get';

export const vaultRouter = router({
  create,
  get,
  delete: remove,
});
