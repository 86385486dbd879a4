import { describe, expect, it } from 'vitest';
import { scanJson } from './json-scan';

const imprecise = (json: string) => scanJson(json, 32).impreciseNumber;

describe('scanJson', () => {
  it('finds number literals a double cannot hold exactly', () => {
    expect(imprecise('{"amount":10.0000000000000000001}')).toBe('10.0000000000000000001');
    expect(imprecise('[1, 12345678901234567]')).toBe('12345678901234567');
  });

  it('accepts ordinary numbers, zeros and anything inside strings', () => {
    expect(imprecise('{"amount":15.5,"n":-0.001,"big":1e300,"z":1000000000000000000000}')).toBeUndefined();
    expect(imprecise('{"cardNumber":"4111111111111111","q":"a\\"12345678901234567"}')).toBeUndefined();
  });

  it('tells when arrays and objects nest deeper than the limit, brackets in strings aside', () => {
    expect(scanJson('{"a":[{"b":[]}]}', 4).tooDeep).toBe(false);
    expect(scanJson('{"a":[{"b":[[]]}]}', 4).tooDeep).toBe(true);
    expect(scanJson(`{"a":"${'['.repeat(100)}","b":{"c":"\\"{{{{"}}`, 2).tooDeep).toBe(false);
    expect(scanJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 32).tooDeep).toBe(true);
    expect(scanJson(`[${'[]'.repeat(10_000)}]`, 2).tooDeep).toBe(false);
  });
});
