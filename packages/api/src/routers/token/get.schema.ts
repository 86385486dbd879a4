import { z } from 'zod';
import { tokenOutput } from '../../schemas/token';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/token/{tokenId}', tags: ['Token'], summary: 'Retrieve a payment token', protect: true },
};

export const input = z.object({ tokenId: z.string().min(1) });
export const output = tokenOutput;
