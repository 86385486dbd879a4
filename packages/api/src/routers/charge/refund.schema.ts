import { z } from 'zod';
import { amountQuery } from '../../schemas/common';
import { chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/charge/{chargeId}',
    tags: ['Charge'],
    summary: 'Refund a captured charge (or void an authorised one)',
    description: 'Refunds the amount given, or all that is left to refund. On a charge that is only authorised, voids it.',
    protect: true,
  },
  idempotent: true,
};

export const refundPathMeta: Meta = {
  openapi: { method: 'DELETE', path: '/refund/{chargeId}', tags: ['Charge'], summary: 'Refund a captured charge', protect: true },
  idempotent: true,
};

export const input = z.object({
  chargeId: z.string().min(1),
  amount: amountQuery.optional().meta({ description: 'Amount to refund; all that is left when absent' }),
  comment: z.string().max(500).optional(),
});
export const output = chargeOutput;
