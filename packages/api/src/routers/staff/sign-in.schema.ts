import { z } from 'zod';
import { staffOutput } from './staff.schema';

export const input = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
});
export const output = staffOutput;
