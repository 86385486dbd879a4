import { z } from 'zod';
import { pagingInput } from '../../schemas/common';
import { providerListOutput } from '../../schemas/provider';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/provider', tags: ['Provider'], summary: 'List the active providers, newest first', protect: true },
};

export const input = z.object({ ...pagingInput });
export const output = providerListOutput;
