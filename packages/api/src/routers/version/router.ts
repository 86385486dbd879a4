import { router } from '../../trpc';
import { get } from './get';

export const versionRouter = router({ get });
