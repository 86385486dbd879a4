import { ApiError } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { checkBatch, readBatch } from './input';

const HEADER = 'PaymentMethodId,Amount,Currency,Reference';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n');

describe('checkBatch', () => {
  it('reads the transactions in minor units of each currency, fields trimmed, an empty reference as none', () => {
    const check = checkBatch({ count: 3, batch: csv(' pm_1 , 15.5 ,aud,inv-1', 'pm_2,1200,JPY,', 'pm_3,0.125,KWD,"a, b"') });
    expect(check).toEqual({
      count: 3,
      problems: [],
      truncated: false,
      transactions: [
        { paymentMethodId: 'pm_1', amount: 1550n, currency: 'AUD', reference: 'inv-1' },
        { paymentMethodId: 'pm_2', amount: 1200n, currency: 'JPY', reference: null },
        { paymentMethodId: 'pm_3', amount: 125n, currency: 'KWD', reference: 'a, b' },
      ],
    });
  });

  it('lists every problem, each with its line and column, request problems first; count only when given', () => {
    const batch = csv('pm_1,1,AUD,a', 'pm_2,-1,AUD,b', 'pm_3,1,XYZ,c', ' ,1.001,AUD,' + 'r'.repeat(41), 'pm_5,1');
    const { count, problems, transactions } = checkBatch({ count: 9, description: 'd'.repeat(101), batch });
    expect(count).toBe(5);
    expect(transactions.map((t) => t.paymentMethodId)).toEqual(['pm_1']);
    expect(problems.map(({ code, line, field }) => [code, line, field])).toEqual([
      [101, undefined, 'description'],
      [101, undefined, 'count'],
      [102, 3, 'Amount'],
      [102, 4, 'Currency'],
      [102, 5, 'PaymentMethodId'],
      [102, 5, 'Amount'],
      [102, 5, 'Reference'],
      [102, 6, undefined],
    ]);
    expect(checkBatch({ batch }).problems.filter((p) => p.code === 101)).toEqual([]);
  });

  it('stops at a wrong header or a CSV syntax error, and lists at most 100 problems', () => {
    expect(checkBatch({ batch: 'PaymentMethodId,Amount\npm,1' }).problems).toEqual([
      { code: 101, line: 1, field: 'batch', reason: `The first line must be the header ${HEADER}` },
    ]);
    expect(checkBatch({ batch: csv('pm_1,1,AUD,"open') }).problems).toEqual([
      { code: 102, line: 2, field: 'batch', reason: 'A quoted field is not closed' },
    ]);
    const many = checkBatch({ batch: csv(...Array.from({ length: 150 }, () => 'pm,0,AUD,x')) });
    expect(many).toMatchObject({ count: 150, truncated: true });
    expect(many.problems).toHaveLength(100);
  });
});

describe('readBatch', () => {
  it('throws the first problem: 101 for the request, 102 with the line for a line', () => {
    const errorOf = (batch: string, count = 1) => {
      try {
        readBatch({ count, description: 'x', batch });
      } catch (error) {
        return error instanceof ApiError ? { code: error.code, message: error.message, details: error.details } : error;
      }
      return undefined;
    };
    expect(errorOf(csv('pm_1,1,AUD,a'), 2)).toEqual({
      code: 101,
      message: 'count is 2 but the batch has 1 transactions',
      details: { field: 'count', reason: 'count is 2 but the batch has 1 transactions' },
    });
    expect(errorOf(csv('pm_1,abc,AUD,a'))).toEqual({
      code: 102,
      message: 'Line 2: Amount is not a number',
      details: { line: '2', field: 'Amount', reason: 'Amount is not a number' },
    });
    expect(readBatch({ count: 1, batch: csv('pm_1,2,AUD,a') })).toHaveLength(1);
  });
});
