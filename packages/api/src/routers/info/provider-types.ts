import { secretOperation } from '../../trpc';
import { input, meta, output } from './provider-types.schema';

export const providerTypes = secretOperation(meta, input, output).query(({ ctx }) => ctx.services.info.providerTypes());
