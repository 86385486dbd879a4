import { ApiError, findCurrency, parseAmount, type AmountProblem } from '@gateway/core';
import type { NewBatch } from '../../schemas/batch';
import { CsvSyntaxError, parseCsv } from './csv';

/** The columns of the CSV a batch is sent as, in order. */
export const INPUT_COLUMNS = ['PaymentMethodId', 'Amount', 'Currency', 'Reference'] as const;

const MAX_DESCRIPTION = 100;
const MAX_PAYMENT_METHOD_ID = 64;
const MAX_REFERENCE = 40;

/** A transaction of a batch, as validated. */
export interface BatchLine {
  paymentMethodId: string;
  /** Minor units of `currency`. */
  amount: bigint;
  currency: string;
  reference: string | null;
}

const AMOUNT_PROBLEMS: Record<AmountProblem, (currency: string, exponent: number) => string> = {
  not_a_number: () => 'Amount is not a number',
  not_positive: () => 'Amount must be greater than zero',
  too_precise: (currency, exponent) => `Amount has more decimals than ${currency} has (${exponent})`,
  too_large: () => 'Amount is too large',
};

/** 101: something about the request as a whole. */
function invalidBatch(reason: string, details: Record<string, string>): ApiError {
  return new ApiError('InvalidBatch', { message: reason, details: { ...details, reason } });
}

/** 102: a line of the CSV; `line` counts the text's lines, the header being line 1. */
function invalidLine(line: number, reason: string, column?: string): ApiError {
  return new ApiError('InvalidBatchData', {
    message: `Line ${line}: ${reason}`,
    details: { line: String(line), ...(column && { column }), reason },
  });
}

/**
 * Validates a whole batch before anything is stored, and returns its transactions. Fields are
 * trimmed; the header must name the columns in order, in any letter case. The first problem
 * found is thrown: 101 for the request (description, header, count), 102 for a line.
 */
export function readBatch(input: NewBatch): BatchLine[] {
  if ((input.description?.length ?? 0) > MAX_DESCRIPTION) {
    throw invalidBatch(`The description has more than ${MAX_DESCRIPTION} characters`, { field: 'description' });
  }
  let records;
  try {
    records = parseCsv(input.batch);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw error.line === 1 ? invalidBatch(error.message, { line: '1' }) : invalidLine(error.line, error.message);
  }
  const [header, ...rows] = records;
  const expected = INPUT_COLUMNS.join(',');
  if (
    header?.fields
      .map((name) => name.trim())
      .join(',')
      .toLowerCase() !== expected.toLowerCase()
  ) {
    throw invalidBatch(`The first line must be the header ${expected}`, { line: String(header?.line ?? 1) });
  }
  if (rows.length === 0) throw invalidBatch('The batch has no transactions', { field: 'batch' });
  if (input.count !== rows.length) {
    throw invalidBatch(`count is ${input.count} but the batch has ${rows.length} transactions`, { field: 'count' });
  }
  return rows.map(({ line, fields }) => {
    if (fields.length !== INPUT_COLUMNS.length) {
      throw invalidLine(line, `Expected ${INPUT_COLUMNS.length} fields (${expected}), found ${fields.length}`);
    }
    const [paymentMethodId, amountText, currencyCode, reference] = fields.map((field) => field.trim()) as [string, string, string, string];
    if (paymentMethodId === '' || paymentMethodId.length > MAX_PAYMENT_METHOD_ID) {
      throw invalidLine(line, `PaymentMethodId must have 1 to ${MAX_PAYMENT_METHOD_ID} characters`, 'PaymentMethodId');
    }
    const currency = findCurrency(currencyCode);
    if (!currency) throw invalidLine(line, `Currency "${currencyCode}" is not an ISO 4217 currency`, 'Currency');
    const amount = parseAmount(amountText, currency);
    if (!amount.ok) throw invalidLine(line, AMOUNT_PROBLEMS[amount.problem](currency.code, currency.exponent), 'Amount');
    if (reference.length > MAX_REFERENCE) {
      throw invalidLine(line, `Reference has more than ${MAX_REFERENCE} characters`, 'Reference');
    }
    return { paymentMethodId, amount: amount.minor, currency: currency.code, reference: reference || null };
  });
}
