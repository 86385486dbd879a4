import { router } from '../../trpc';
import { create } from './create';
import { get } from './get';
import { search } from './search';
import { status } from './status';
import { validate } from './validate';

export const batchRouter = router({ create, get, status, search, validate });
