import { z } from 'zod';
import { amountInput } from '../../schemas/common';
import { chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

const summary = 'Capture an authorised charge, in full or in part';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/charge/{chargeId}/capture', tags: ['Charge'], summary, protect: true },
  idempotent: true,
};

/** The path the spec (and the PHP client) uses for the same operation. */
export const shortPathMeta: Meta = {
  openapi: { method: 'POST', path: '/charge/{chargeId}', tags: ['Charge'], summary, protect: true },
  idempotent: true,
};

export const input = z.object({
  chargeId: z.string().min(1),
  amount: amountInput.optional().meta({ description: 'Amount to capture; the whole authorisation when absent' }),
});
export const output = chargeOutput;
