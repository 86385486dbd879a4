import { z } from 'zod';
import { versionOutput } from '../../schemas/info';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: { method: 'GET', path: '/version', tags: ['Info'], summary: 'The version of the gateway', protect: true },
};

export const input = z.object({});
export const output = versionOutput;
