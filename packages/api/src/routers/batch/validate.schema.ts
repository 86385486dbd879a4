import { z } from 'zod';
import { newBatchInput } from '../../schemas/batch';

/** What a batch form has before sending: `count` is checked only when given. */
export const input = newBatchInput.pick({ batch: true, description: true }).extend({ count: newBatchInput.shape.count.optional() });

export const output = z.object({
  valid: z.boolean(),
  count: z.number().int().meta({ description: 'Transactions found in the CSV' }),
  problems: z.array(
    z.object({
      code: z.union([z.literal(101), z.literal(102)]),
      line: z.number().int().optional(),
      field: z.string().optional(),
      reason: z.string(),
    }),
  ),
  truncated: z.boolean().meta({ description: 'More problems were found than are listed' }),
  totals: z
    .array(z.object({ currency: z.string(), amount: z.number() }))
    .meta({ description: 'What the lines without problems add up to, per currency' }),
});
