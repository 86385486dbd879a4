import { z } from 'zod';
import { cardChargeInput, chargeOutput } from '../../schemas/charge';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'POST', path: '/charge/card', tags: ['Charge'], summary: 'Charge a card through the given provider', protect: true },
  successStatus: 201,
  idempotent: true,
};

export const input = cardChargeInput.extend({ providerId: z.string().min(1) });
export const output = chargeOutput;
