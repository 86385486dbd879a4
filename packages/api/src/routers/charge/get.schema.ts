import { z } from 'zod';
import { chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/charge/{chargeId}', tags: ['Charge'], summary: 'Retrieve a charge', protect: true },
};

export const input = z.object({ chargeId: z.string().min(1) });
export const output = chargeOutput;
