import { z } from 'zod';
import { chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'DELETE', path: '/charge/{chargeId}/void', tags: ['Charge'], summary: 'Void an authorised charge', protect: true },
  idempotent: true,
};

export const input = z.object({ chargeId: z.string().min(1) });
export const output = chargeOutput;
