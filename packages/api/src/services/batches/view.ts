import { toWireAmount } from '@gateway/core';
import type { Batch, BatchRow } from '@gateway/db';
import type { BatchStatusView } from '../../schemas/batch';
import { requireCurrency } from '../money';
import { toCsv } from './csv';
import { INPUT_COLUMNS } from './input';

const RESULT_COLUMNS = [
  ...INPUT_COLUMNS,
  'Status',
  'TransactionId',
  'FailureReason',
  'GatewayErrorCode',
  'GatewayErrorResponse',
  'IsRetryable',
] as const;

export function toBatchStatusView(batch: Batch): BatchStatusView {
  return {
    batchId: batch.id,
    count: batch.count,
    success: batch.success,
    failure: batch.failure,
    description: batch.description,
    status: batch.status,
    progress: batch.processed / batch.count,
    dateAdded: batch.dateAdded.toISOString(),
    metadata: batch.metadata as Record<string, string> | null,
  };
}

/**
 * The results CSV: the header, then each row in input order with its status so far. The amount is
 * a number; every other cell is text, neutralised by toCsv when a spreadsheet would take it for a
 * formula (a Reference "=HYPERLINK(…)" or "-5" is written '=HYPERLINK(…) and '-5).
 */
export function resultsCsv(rows: BatchRow[]): string {
  const lines = rows.map((row) => [
    row.paymentMethodId,
    toWireAmount(row.amount, requireCurrency(row.currency)),
    row.currency,
    row.reference ?? '',
    row.status,
    row.status === 'SUCCESS' ? row.chargeId : '',
    row.failureReason ?? '',
    row.gatewayErrorCode ?? '',
    row.gatewayErrorResponse ?? '',
    row.isRetryable === null ? '' : String(row.isRetryable),
  ]);
  return toCsv([RESULT_COLUMNS, ...lines]);
}
