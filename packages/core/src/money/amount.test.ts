import { describe, expect, it } from 'vitest';
import { findCurrency, type Currency } from './currencies';
import { describeAmountProblem, formatAmount, isWithinAmountRange, parseAmount, parseDecimal, percentOf, toWireAmount } from './amount';

const currency = (code: string): Currency => {
  const c = findCurrency(code);
  if (!c) throw new Error(code);
  return c;
};
const AUD = currency('AUD');
const JPY = currency('JPY');
const KWD = currency('KWD');

describe('parseAmount', () => {
  it.each([
    ['15.5', AUD, 1550n],
    [15.5, AUD, 1550n],
    ['258', AUD, 25800n],
    [20.0, AUD, 2000n],
    ['0.01', AUD, 1n],
    ['0.1', AUD, 10n],
    [0.1, AUD, 10n],
    ['1.10', AUD, 110n],
    ['1e3', AUD, 100000n],
    ['1000', JPY, 1000n],
    ['1.000', JPY, 1n],
    ['1.234', KWD, 1234n],
    [' 7.25 ', AUD, 725n],
  ] as const)('%s %s → %s minor units', (input, cur, expected) => {
    expect(parseAmount(input, cur)).toEqual({ ok: true, minor: expected });
  });

  it.each([
    ['abc', AUD, 'not_a_number'],
    ['', AUD, 'not_a_number'],
    ['1,5', AUD, 'not_a_number'],
    [Number.NaN, AUD, 'not_a_number'],
    [Number.POSITIVE_INFINITY, AUD, 'not_a_number'],
    ['0', AUD, 'not_positive'],
    [-5, AUD, 'not_positive'],
    ['0.00', AUD, 'not_positive'],
    ['1.005', AUD, 'too_precise'],
    ['1.5', JPY, 'too_precise'],
    [1e-7, AUD, 'too_precise'],
    ['1.2345', KWD, 'too_precise'],
    ['10000000000000', AUD, 'too_large'],
    [`1.${'0'.repeat(100)}`, AUD, 'not_a_number'],
  ] as const)('%s %s is refused as %s', (input, cur, problem) => {
    expect(parseAmount(input, cur)).toEqual({ ok: false, problem });
  });

  it('never goes through floating point: 0.1 + 0.2 style sums stay exact', () => {
    const a = parseAmount('0.1', AUD);
    const b = parseAmount('0.2', AUD);
    if (!a.ok || !b.ok) throw new Error('parse');
    expect(formatAmount(a.minor + b.minor, AUD)).toBe('0.3');
  });
});

describe('describeAmountProblem', () => {
  it.each([
    ['1,500', AUD, 'Amount is not a number'],
    ['-20', AUD, 'Amount must be greater than zero'],
    ['2500.5', JPY, 'JPY amounts have no decimal places'],
    ['1.2345', KWD, 'KWD amounts have at most 3 decimal places'],
    ['10000000000000', AUD, 'Amount is too large'],
  ] as const)('%s %s: %s', (input, cur, message) => {
    const result = parseAmount(input, cur);
    expect(result.ok ? undefined : describeAmountProblem(result.problem, cur)).toBe(message);
  });
});

describe('isWithinAmountRange', () => {
  const within = (text: string) => isWithinAmountRange(parseDecimal(text)!);
  it('takes magnitudes below 10^15, whatever the sign and decimals', () => {
    expect(within('999999999999999.999')).toBe(true);
    expect(within('-999999999999999')).toBe(true);
    expect(within('0.0000001')).toBe(true);
    expect(within('1e14')).toBe(true);
  });
  it('refuses 10^15 and beyond', () => {
    expect(within('1000000000000000')).toBe(false);
    expect(within('9999999999999999')).toBe(false);
    expect(within('-1e15')).toBe(false);
    expect(within('1e100')).toBe(false);
  });
});

describe('formatAmount / toWireAmount', () => {
  it.each([
    [1550n, AUD, '15.5'],
    [20000n, AUD, '200'],
    [1n, AUD, '0.01'],
    [0n, AUD, '0'],
    [1000n, JPY, '1000'],
    [1234n, KWD, '1.234'],
    [999999999999999n, AUD, '9999999999999.99'],
  ] as const)('%s %s → %s', (minor, cur, text) => {
    expect(formatAmount(minor, cur)).toBe(text);
    expect(JSON.stringify(toWireAmount(minor, cur))).toBe(text);
  });
});

describe('percentOf', () => {
  it('rounds half up to the minor unit', () => {
    const pct = parseDecimal('1.75');
    if (!pct) throw new Error('parse');
    expect(percentOf(10000n, pct)).toBe(175n); // 1.75% of 100.00
    expect(percentOf(1550n, pct)).toBe(27n); // 27.125 → 27
    expect(percentOf(1572n, pct)).toBe(28n); // 27.51 → 28
    expect(percentOf(2000n, { units: 25n, scale: 1 })).toBe(50n); // 2.5% of 20.00
  });
});
