import { describe, expect, it } from 'vitest';
import { parseWireDate } from './wire-date';

describe('parseWireDate', () => {
  it.each([
    ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T10:20:30.123+10:00', '2024-05-01T00:20:30.123Z'],
    ['2024-05-01T10:20:30', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01 10: 20:30', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01 10:20:30', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['Tue Nov 14 22:13:20 UTC 2023', '2023-11-14T22:13:20.000Z'],
    ['Tue Nov 14 22:13:20 AEDT 2023', '2023-11-14T11:13:20.000Z'],
    ['1700000000000', '2023-11-14T22:13:20.000Z'],
    [1700000000000, '2023-11-14T22:13:20.000Z'],
  ] as const)('%s', (input, iso) => {
    expect(parseWireDate(input)?.toISOString()).toBe(iso);
  });

  it.each([
    'yesterday',
    '2024-02-30',
    '2027-02-30T00:00:00Z',
    '2024-04-31T10:00:00+10:00',
    '2024-13-01',
    'Tue Foo 14 22:13:20 UTC 2023',
    'Tue Nov 14 22:13:20 XYZ 2023',
    '',
  ])('refuses %s', (input) => {
    expect(parseWireDate(input)).toBeUndefined();
  });

  it('takes the years 1 to 9999 only, which the database can store', () => {
    expect(parseWireDate('9999-12-31T23:59:59.999Z')?.toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(parseWireDate('0001-01-01')?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    for (const input of [8.64e15, -8.64e15, 253402300800000, '-62135596800001']) expect(parseWireDate(input)).toBeUndefined();
  });
});
