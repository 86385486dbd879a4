import { z } from 'zod';
import { customerOutput } from '../../schemas/customer';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'GET',
    path: '/customer/{customerId}',
    tags: ['Customer'],
    summary: 'Retrieve a customer (removed ones too)',
    protect: true,
  },
};

export const input = z.object({ customerId: z.string().min(1) });
export const output = customerOutput;
