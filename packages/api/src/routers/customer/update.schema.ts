import { z } from 'zod';
import { customerFields, customerOutput } from '../../schemas/customer';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'PUT',
    path: '/customer/{customerId}',
    tags: ['Customer'],
    summary: 'Update a customer (absent fields stay as they are)',
    protect: true,
  },
};

const { email, phone, address, reference, firstName, lastName } = customerFields;

export const input = z.object({
  customerId: z.string().min(1),
  email,
  phone,
  address,
  reference,
  firstName,
  lastName,
  defaultPaymentMethodId: z.string().min(1).max(64).optional().meta({ description: 'An active payment method of this customer' }),
});
export const output = customerOutput;
