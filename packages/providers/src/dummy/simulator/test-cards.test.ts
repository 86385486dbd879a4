import { describe, expect, it } from 'vitest';
import { passesLuhn } from '@gateway/core';
import { cardBehaviour, TEST_CARDS } from './test-cards.js';

describe('test cards', () => {
  it.each(TEST_CARDS.map((c) => [c.number, c.outcome]))('%s (%s) passes the Luhn check', (number) => {
    expect(passesLuhn(number)).toBe(true);
  });

  it('lists each number once', () => {
    expect(new Set(TEST_CARDS.map((c) => c.number)).size).toBe(TEST_CARDS.length);
  });

  it('approves unlisted Luhn-valid numbers and declines Luhn-invalid ones as invalid card', () => {
    expect(cardBehaviour('6011111111111117')).toEqual({ code: '00', hold: false });
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(cardBehaviour('4111111111111112')).toEqual({ code: '14', hold: false });
  });
});
