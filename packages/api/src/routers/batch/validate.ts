import { staffOperation } from '../../trpc';
import { input, output } from './validate.schema';

/** Checks a batch as create would, listing every problem with its line; stores nothing. Dashboard only (tRPC); a mutation, since the CSV is too large for a query string. */
export const validate = staffOperation(input, output).mutation(({ ctx, input: batch }) => ctx.services.batches.validate(batch));
