import { z } from 'zod';
import { booleanInput } from '../../schemas/common';
import { customerOutput } from '../../schemas/customer';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'DELETE',
    path: '/customer/{customerId}',
    tags: ['Customer'],
    summary: 'Remove a customer and all its payment methods (soft)',
    protect: true,
  },
};

export const input = z.object({
  customerId: z.string().min(1),
  gatewayDelete: booleanInput.optional().meta({ description: 'Also delete the saved cards at the providers (default true)' }),
});
export const output = customerOutput;
