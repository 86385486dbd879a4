import { staffOperation } from '../../trpc';
import { listInput, listOutput, settleInput, settleOutput } from './unknown-outcomes.schema';

/** Calls whose outcome is unknown at the provider, held for staff (docs/outcome-unknown.md). */
export const unknownOutcomes = staffOperation(listInput, listOutput).query(({ ctx, input }) =>
  ctx.services.charges.unknownOutcomes.list(ctx.account, input?.settled !== true, input?.chargeId),
);

/** Settles a held call as staff found it at the provider. */
export const settleUnknownOutcome = staffOperation(settleInput, settleOutput).mutation(({ ctx, input }) =>
  ctx.services.charges.unknownOutcomes.resolve(ctx.account, `staff:${ctx.staff.userId}`, input),
);
