import { readFileSync } from 'node:fs';
import type { FailureCategory } from '@gateway/providers';
import { describe, expect, it } from 'vitest';
import { providerError } from './connectors';

/**
 * The gateway error column of each provider type's code table (docs/providers/<type>.md): every
 * row's category answers the catalogue error the page names, a 4xx with a code the SDKs know
 * (at most 107), retryable as the row says, with the table's message and never the provider's text.
 * (Each row's category is tested against the connector in packages/providers.)
 */

interface Row {
  code: string;
  category: FailureCategory;
  error: string;
  retryable: boolean;
}

/** The rows of the table whose header starts with `first`: its columns read by their header names. */
function table(type: string, first: string): Row[] {
  const doc = readFileSync(new URL(`../../../../../docs/providers/${type}.md`, import.meta.url), 'utf8').split('\n');
  const cellsOf = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/`/g, ''));
  const header = doc.findIndex((line) => line.startsWith(`| ${first}`));
  expect(header, `${type}: table ${first}`).toBeGreaterThan(0);
  const names = cellsOf(doc[header]!);
  const column = (cells: string[], name: string) => cells[names.findIndex((n) => n.startsWith(name))] ?? '';
  const end = doc.findIndex((line, i) => i > header && !line.startsWith('|'));
  return doc.slice(header + 2, end).map((line) => {
    const cells = cellsOf(line);
    return {
      code: column(cells, first),
      category: column(cells, 'Category') as FailureCategory,
      error: column(cells, 'Gateway error'),
      retryable: column(cells, 'Retryable') === 'yes',
    };
  });
}

describe.each([
  ['stripe', 'Stripe code'],
  ['adyen', 'Adyen'],
])('the code table of docs/providers/%s.md', (type, first) => {
  const rows = table(type, first);

  it('has rows', () => expect(rows.length).toBeGreaterThan(20));

  it.each(rows.map((row) => [row.code, row] as const))('answers %s as its gateway error says', (_code, row) => {
    const error = providerError({ category: row.category, retryable: row.retryable, gatewayCode: 'X', gatewayMessage: 'From the table' });
    expect(`${error.errorName} (${error.code})`).toBe(row.error);
    expect(error.code).toBeLessThanOrEqual(107);
    expect(error.http).toBeGreaterThanOrEqual(400);
    expect(error.http).toBeLessThan(500);
    expect(error.retryable).toBe(row.retryable);
    expect(error.message).toContain('From the table');
  });

  it('answers 3-D Secure required with the catalogue’s 3-D Secure failure code', () => {
    const threeDs = rows.filter((row) => row.category === 'authentication_required');
    expect(threeDs.length).toBeGreaterThan(0);
    for (const row of threeDs) expect(row.error).toBe('ThreeDSecureFailed (18)');
  });
});
