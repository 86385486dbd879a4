import { router } from '../../trpc';
import { cancel } from './cancel';
import { create } from './create';
import { get } from './get';
import { search } from './search';
import { update } from './update';
import { updateStatus } from './update-status';

export const subscriptionRouter = router({ create, get, search, update, updateStatus, cancel });
