import { describe, expect, it } from 'vitest';
import { findImpreciseNumber } from './json-numbers';

describe('findImpreciseNumber', () => {
  it('finds number literals a double cannot hold exactly', () => {
    expect(findImpreciseNumber('{"amount":10.0000000000000000001}')).toBe('10.0000000000000000001');
    expect(findImpreciseNumber('[1, 12345678901234567]')).toBe('12345678901234567');
  });

  it('accepts ordinary numbers, zeros and anything inside strings', () => {
    expect(findImpreciseNumber('{"amount":15.5,"n":-0.001,"big":1e300,"z":1000000000000000000000}')).toBeUndefined();
    expect(findImpreciseNumber('{"cardNumber":"4111111111111111","q":"a\\"12345678901234567"}')).toBeUndefined();
  });
});
