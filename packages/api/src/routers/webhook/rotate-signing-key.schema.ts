import { z } from 'zod';

export const input = z.object({});
export { output } from './signing-key.schema';
