import { z } from 'zod';
import { notFreeText } from '../../binding';
import { staffOutput } from './staff.schema';

export const input = z.object({
  email: z.string().trim().min(1).max(254),
  // Checked against a hash, never stored.
  password: z.string().min(1).max(200).register(notFreeText),
});
export const output = staffOutput;
