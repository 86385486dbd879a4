import { z } from 'zod';
import { notFreeText } from '../binding';
import { dateOutput, MAX_COUNT, metadataInput, uncoerced, webhookInput } from './common';

export const BATCH_STATUSES = ['RECEIVED', 'CREATED', 'IN_PROGRESS', 'SUCCESS', 'FAILED'] as const;

/** The body of POST /batch/transaction/payment_method; its content is checked by services/batches/input.ts. */
export const newBatchInput = z.object({
  count: uncoerced(z.number().int().min(0).max(MAX_COUNT)).meta({ description: 'Number of transactions in `batch` (else 101)' }),
  description: z.string().optional().meta({ description: 'Up to 100 characters (else 101)' }),
  batch: z
    .string()
    .meta({
      description:
        'CSV: the header PaymentMethodId,Amount,Currency,Reference, then one line per transaction (a bad line: 102, with details.line)',
      example: 'PaymentMethodId,Amount,Currency,Reference\n3a5c…,15.5,AUD,invoice-1',
    })
    // Its free text (References) is checked line by line, so a problem names the line.
    .register(notFreeText),
  webhook: webhookInput.optional().meta({ description: 'Told of status changes (also accepted as webhookConfig)' }),
  metadata: metadataInput.optional(),
});
export type NewBatch = z.infer<typeof newBatchInput>;

export const batchStatusOutput = z
  .object({
    batchId: z.string(),
    count: z.number().int(),
    success: z.number().int().meta({ description: 'Transactions that succeeded so far' }),
    failure: z.number().int().meta({ description: 'Transactions that failed so far' }),
    description: z.string(),
    status: z.enum(BATCH_STATUSES),
    progress: z.number().min(0).max(1).meta({ description: 'Fraction of the transactions processed' }),
    dateAdded: dateOutput,
    metadata: z.record(z.string(), z.string()).nullable(),
  })
  .meta({ id: 'BatchStatus' });
export type BatchStatusView = z.infer<typeof batchStatusOutput>;

export const batchOutput = batchStatusOutput
  .extend({
    results: z.string().meta({
      description:
        'CSV: PaymentMethodId,Amount,Currency,Reference,Status,TransactionId,FailureReason,GatewayErrorCode,GatewayErrorResponse,IsRetryable, one line per transaction in input order',
    }),
  })
  .meta({ id: 'Batch' });
export type BatchView = z.infer<typeof batchOutput>;

export const batchListOutput = z.object({
  limit: z.number().int(),
  skip: z.number().int(),
  count: z.number().int().meta({ description: 'Batches matching, in all pages' }),
  batches: z.array(batchStatusOutput),
});
export type BatchListView = z.infer<typeof batchListOutput>;
