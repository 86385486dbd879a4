import { batchStatusOutput, newBatchInput } from '../../schemas/batch';
import type { Meta } from '../../trpc';

export const meta: Meta = {
  openapi: {
    method: 'POST',
    path: '/batch/transaction/payment_method',
    tags: ['Batch'],
    summary: 'Charge saved payment methods from a CSV',
    description:
      'Checks the whole request (101 for the request, e.g. over 10 MB or 100,000 rows; 102 for a line, with details.line), ' +
      'then answers the batch, CREATED, at once; its rows are charged in the background (docs/batches.md).',
    protect: true,
  },
  idempotent: true,
};

export const input = newBatchInput;
export const output = batchStatusOutput;
