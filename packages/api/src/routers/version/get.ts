import { secretOperation } from '../../trpc';
import { input, meta, output } from './get.schema';

export const get = secretOperation(meta, input, output).query(({ ctx }) => ctx.services.info.version());
