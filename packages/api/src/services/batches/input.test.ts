import { ApiError } from '@gateway/core';
import { describe, expect, it } from 'vitest';
import { checkBatch, echo, MAX_ROWS, readBatch } from './input';

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

  it(`takes up to ${MAX_ROWS} transactions and refuses more (101) without checking their lines`, () => {
    const rows = (n: number) => csv(...Array.from({ length: n }, () => 'pm,1,AUD,'));
    expect(checkBatch({ batch: rows(MAX_ROWS) })).toMatchObject({ count: MAX_ROWS, problems: [] });
    const over = checkBatch({ count: 1, batch: `${rows(MAX_ROWS + 1)}\npm,ten,ZZZ,` });
    expect(over).toMatchObject({ count: MAX_ROWS + 2, transactions: [] });
    expect(over.problems).toEqual([
      { code: 101, field: 'batch', reason: 'The batch has 100,002 transactions, more than 100,000: split it' },
    ]);
    // Two files of 100,000 lines: a few seconds on a busy machine.
  }, 30_000);

  it('refuses amounts in exponent form: a CSV amount is a plain decimal', () => {
    const batch = csv('pm_1,1e3,AUD,a', 'pm_2,1E2,JPY,b', 'pm_3,2.5e-1,AUD,c', 'pm_4,1000,AUD,d', 'pm_5,ten,AUD,e');
    const { problems, transactions } = checkBatch({ batch });
    expect(problems.map(({ code, line, field, reason }) => [code, line, field, reason])).toEqual([
      [102, 2, 'Amount', 'Amount must be a plain decimal, without an exponent'],
      [102, 3, 'Amount', 'Amount must be a plain decimal, without an exponent'],
      [102, 4, 'Amount', 'Amount must be a plain decimal, without an exponent'],
      // Not a number at all, though it has an "e": said so.
      [102, 6, 'Amount', 'Amount is not a number'],
    ]);
    expect(transactions).toEqual([{ paymentMethodId: 'pm_4', amount: 100000n, currency: 'AUD', reference: 'd' }]);
  });

  it('quotes a value at most 16 characters long, card-like digits masked, and refuses a card number as payment method', () => {
    const currency = (value: string) => checkBatch({ batch: csv(`pm_1,1,${value},a`) }).problems[0]?.reason;
    expect(currency('XYZ')).toBe('Currency "XYZ" is not an ISO 4217 currency');
    expect(currency('y'.repeat(100_000))).toBe(`Currency "${'y'.repeat(16)}…" is not an ISO 4217 currency`);
    expect(currency('4111111111111111')).toBe('Currency "411111******1111" is not an ISO 4217 currency');
    const cardNumber = checkBatch({ batch: csv('4111 1111 1111 1111,1,AUD,a') }).problems;
    expect(cardNumber).toEqual([
      {
        code: 102,
        line: 2,
        field: 'PaymentMethodId',
        reason: 'PaymentMethodId looks like a card number: send the id of a saved payment method',
      },
    ]);
  });
});

describe('echo', () => {
  it('masks each run of 12 digits or more (spaces and dashes between) to its first 6 and last 4, then cuts at 16 characters', () => {
    expect(echo('AUD')).toBe('AUD');
    expect(echo('12345678901')).toBe('12345678901');
    expect(echo('4111-1111-1111-1111')).toBe('411111******1111');
    expect(echo('card 4111 1111 1111 1111 exp')).toBe('card 411111*****…');
    expect(echo('5555555555554444'.repeat(3))).toBe('555555**********…');
    expect(echo('x'.repeat(17))).toBe(`${'x'.repeat(16)}…`);
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
