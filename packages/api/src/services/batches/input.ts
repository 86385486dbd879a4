import {
  ApiError,
  containsCardNumber,
  describeAmountProblem,
  findCurrency,
  maskCardNumber,
  normaliseCardNumber,
  parseAmount,
  type Currency,
} from '@gateway/core';
import type { NewBatch } from '../../schemas/batch';
import { CsvSyntaxError, parseCsv, type CsvRecord } from './csv';

/** The columns of the CSV a batch is sent as, in order. */
export const INPUT_COLUMNS = ['PaymentMethodId', 'Amount', 'Currency', 'Reference'] as const;

const MAX_DESCRIPTION = 100;
const MAX_PAYMENT_METHOD_ID = 64;
const MAX_REFERENCE = 40;
/** Transactions a batch holds at most: a 10 MB file of tiny lines would otherwise be some 1,000,000. */
export const MAX_ROWS = 100_000;
/** Characters of a CSV value a problem quotes at most: the file is the merchant's, not worth sending back. */
const MAX_ECHO = 16;
/** Problems a check lists at most: a file that is wrong throughout would otherwise list every line. */
const MAX_PROBLEMS = 100;

/** A transaction of a batch, as validated. */
export interface BatchLine {
  paymentMethodId: string;
  /** Minor units of `currency`. */
  amount: bigint;
  currency: string;
  reference: string | null;
}

/** What is wrong with a batch request; `code` is the error an API call answers for it. */
export interface BatchProblem {
  /** 101 (InvalidBatch): the request as a whole; 102 (InvalidBatchData): one line of the CSV. */
  code: 101 | 102;
  /** The line of the CSV text (the header is line 1); absent when no line is at fault. */
  line?: number;
  /** The request field (`description`, `count`, `batch`) or CSV column at fault. */
  field?: string;
  reason: string;
}

/** What a check of a batch request found: with no problems, `transactions` are what create would store. */
export interface BatchCheck {
  /** Transactions found in the CSV (its lines after the header, empty lines skipped). */
  count: number;
  /** The lines without problems. */
  transactions: BatchLine[];
  /** In the order an API call meets them (it answers the first); at most MAX_PROBLEMS. */
  problems: BatchProblem[];
  /** More problems were found than are listed. */
  truncated: boolean;
}

/** The fields of a batch request a check reads; without `count`, the count is not checked. */
export type BatchText = Pick<NewBatch, 'batch' | 'description'> & { count?: number };

const HEADER = INPUT_COLUMNS.join(',');

/** 12 digits or more, single spaces or dashes allowed between them: what may be a card number. */
const DIGIT_RUN = /\d(?:[ -]?\d){11,}/g;

/**
 * A CSV value as a problem quotes it: each run of 12 digits or more masked to its first six and
 * last four digits (as cards are shown), then cut to MAX_ECHO characters and an ellipsis.
 */
export function echo(value: string): string {
  const masked = value.replace(DIGIT_RUN, (run) => maskCardNumber(run.replace(/\D/g, '')));
  return masked.length > MAX_ECHO ? `${masked.slice(0, MAX_ECHO)}…` : masked;
}

/**
 * The amount in minor units, or why it is not one. A CSV amount is a plain decimal: parseAmount
 * also reads the exponent form of JSON numbers (1e3), which in a CSV is a cell a spreadsheet
 * rounded (1.23457E+15).
 */
function readAmount(text: string, currency: Currency): { minor: bigint } | { reason: string } {
  const amount = parseAmount(text, currency);
  if (!amount.ok) return { reason: describeAmountProblem(amount.problem, currency) };
  return /e/i.test(text) ? { reason: 'Amount must be a plain decimal, without an exponent' } : amount;
}

/** The CSV's records, or the syntax problem that stops reading it. */
function records(text: string): CsvRecord[] | BatchProblem {
  try {
    return parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { code: error.line === 1 ? 101 : 102, line: error.line, field: 'batch', reason: error.message };
  }
}

/** The problems of one line, and its transaction when it has none. */
function checkLine({ line, fields }: CsvRecord): BatchLine | BatchProblem[] {
  const problem = (field: string | undefined, reason: string): BatchProblem => ({ code: 102, line, ...(field && { field }), reason });
  if (fields.length !== INPUT_COLUMNS.length) {
    return [problem(undefined, `Expected ${INPUT_COLUMNS.length} fields (${HEADER}), found ${fields.length}`)];
  }
  const [paymentMethodId, amountText, currencyCode, reference] = fields.map((field) => field.trim()) as [string, string, string, string];
  const problems: BatchProblem[] = [];
  if (paymentMethodId === '' || paymentMethodId.length > MAX_PAYMENT_METHOD_ID) {
    problems.push(problem('PaymentMethodId', `PaymentMethodId must have 1 to ${MAX_PAYMENT_METHOD_ID} characters`));
  } else if (normaliseCardNumber(paymentMethodId)) {
    // Never stored nor answered in results: a card number is not a payment method's id.
    problems.push(problem('PaymentMethodId', 'PaymentMethodId looks like a card number: send the id of a saved payment method'));
  }
  const currency = findCurrency(currencyCode);
  if (!currency) problems.push(problem('Currency', `Currency "${echo(currencyCode)}" is not an ISO 4217 currency`));
  const amount = currency && readAmount(amountText, currency);
  if (amount && 'reason' in amount) problems.push(problem('Amount', amount.reason));
  if (reference.length > MAX_REFERENCE) problems.push(problem('Reference', `Reference has more than ${MAX_REFERENCE} characters`));
  // As in any free text of the API (binding.ts): never stored, never quoted back.
  else if (containsCardNumber(reference))
    problems.push(problem('Reference', 'Reference looks like a card number: send card numbers only in card fields'));
  if (!currency || !amount || 'reason' in amount || problems.length > 0) return problems;
  return { paymentMethodId, amount: amount.minor, currency: currency.code, reference: reference || null };
}

/**
 * Checks a whole batch request without storing anything: the description, the CSV (RFC 4180,
 * fields trimmed), its header (the columns in order, any letter case), `count` against the lines,
 * and every line's payment method id, amount (in its currency's decimals), currency and reference.
 * Whether the payment methods exist and can be charged is found when each row is charged.
 */
export function checkBatch(input: BatchText): BatchCheck {
  const problems: BatchProblem[] = [];
  let truncated = false;
  const add = (...found: BatchProblem[]) => {
    for (const problem of found) {
      if (problems.length < MAX_PROBLEMS) problems.push(problem);
      else truncated = true;
    }
  };
  const result = (count: number, transactions: BatchLine[] = []): BatchCheck => ({ count, transactions, problems, truncated });

  if ((input.description?.length ?? 0) > MAX_DESCRIPTION) {
    add({ code: 101, field: 'description', reason: `The description has more than ${MAX_DESCRIPTION} characters` });
  }
  const parsed = records(input.batch);
  if (!Array.isArray(parsed)) {
    add(parsed);
    return result(0);
  }
  const [header, ...rows] = parsed;
  const names = header?.fields.map((name) => name.trim()).join(',');
  if (names?.toLowerCase() !== HEADER.toLowerCase()) {
    add({ code: 101, line: header?.line ?? 1, field: 'batch', reason: `The first line must be the header ${HEADER}` });
    return result(rows.length);
  }
  if (rows.length === 0) add({ code: 101, field: 'batch', reason: 'The batch has no transactions' });
  if (rows.length > MAX_ROWS) {
    // Refused before any line is checked: the file is too large to be worth reading further.
    const reason = `The batch has ${rows.length.toLocaleString('en')} transactions, more than ${MAX_ROWS.toLocaleString('en')}: split it`;
    add({ code: 101, field: 'batch', reason });
    return result(rows.length);
  }
  if (input.count !== undefined && input.count !== rows.length) {
    add({ code: 101, field: 'count', reason: `count is ${input.count} but the batch has ${rows.length} transactions` });
  }
  const transactions: BatchLine[] = [];
  for (const row of rows) {
    const checked = checkLine(row);
    if (Array.isArray(checked)) add(...checked);
    else transactions.push(checked);
  }
  return result(rows.length, transactions);
}

/** The API error for a problem: 101 or 102, with the offending line and field in `details`. */
export function batchError({ code, line, field, reason }: BatchProblem): ApiError {
  return new ApiError(code === 101 ? 'InvalidBatch' : 'InvalidBatchData', {
    message: line === undefined || code === 101 ? reason : `Line ${line}: ${reason}`,
    details: { ...(line !== undefined && { line: String(line) }), ...(field && { field }), reason },
  });
}

/** The transactions of a valid batch request; throws the first problem as its API error. */
export function readBatch(input: NewBatch): BatchLine[] {
  const { problems, transactions } = checkBatch(input);
  if (problems[0]) throw batchError(problems[0]);
  return transactions;
}
