import { z } from 'zod';
import { staffOutput } from './staff.schema';

export const input = z.void();
export const output = staffOutput;
