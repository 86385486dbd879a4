import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFakeNab, type FakeNab } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, valueOf } from '../testing.js';
import { APPROVED_CODES, declineFor, failureFor, NAB_CODES, outcomeUnknown, statusFailure, type NabCode } from './codes.js';
import { payment } from './scenarios.js';
import { NAB_TRANSACT } from './type.js';

// Every row of the code table. Bank response codes are answered by the fake NAB to a purchase whose
// cents are the code (as NAB's test gateway does) and read back by the connector; gateway and status
// codes, which the test gateway gives for malformed messages only, are read by the mapping itself.
let fake: FakeNab;
beforeAll(async () => {
  fake = await startFakeNab({ merchantId: 'XYZ0010', password: 'abcd1234' });
});
afterEach(() => expect(fake.violations).toEqual([]));
afterAll(() => fake.close());

const connector = () =>
  NAB_TRANSACT.connector({
    baseUrl: fake.url,
    timeoutMs: 2_000,
    environment: 'SANDBOX',
    parameters: { MerchantId: 'XYZ0010', Password: 'abcd1234' },
  });

const codes = Object.keys(NAB_CODES) as NabCode[];
const expected = (code: NabCode) => ({
  category: NAB_CODES[code].category,
  retryable: NAB_CODES[code].retryable,
  gatewayCode: code,
  gatewayMessage: NAB_CODES[code].message,
});

describe('the code table', () => {
  it.each(codes.filter((code) => /^\d{2}$/.test(code)))('reads bank response code %s from NAB', async (code) => {
    expect(failureOf(await connector().authorise(payment({ amount: BigInt(`10${code}`) })))).toEqual(expected(code));
  });

  it.each(APPROVED_CODES)('approves with bank response code %s', async (code) => {
    valueOf(await connector().authorise(payment({ amount: BigInt(`10${code}`) })));
  });

  it.each(codes.filter((code) => /^\d{3}$/.test(code)))('reads gateway response code %s', (code) => {
    expect(declineFor(code)).toEqual(expected(code));
  });

  it.each(codes.filter((code) => code.startsWith('status/')))('reads message status %s', (code) => {
    expect(statusFailure(code.slice('status/'.length))).toEqual(expected(code));
  });

  it('reads a code it does not know as a decline, and a status it does not know as retryable', () => {
    expect(declineFor('99')).toEqual(expected('DECLINED'));
    expect(statusFailure('599')).toEqual(expected('STATUS'));
  });

  // NAB answers the bank's answer lost with txnID 000000: it may hold the payment all the same.
  it.each(['111', '112'] as const)(
    'reads gateway response code %s from NAB, without a transaction id, as an unknown outcome',
    async (code) => {
      fake.failNext('0', { kind: 'declined', responseCode: code });
      const failure = failureOf(await connector().authorise(payment()));
      expect(failure).toEqual(expected(code));
      expect(failure).toMatchObject({ category: 'timeout', retryable: true });
    },
  );

  it('makes an unknown outcome (timeout, retryable) of every row that says so, and of no answer NAB’s bank gave', () => {
    for (const code of codes) {
      const failure = failureFor(code);
      const says = /outcome unknown$/.test(NAB_CODES[code].message);
      expect([code, outcomeUnknown(failure)]).toEqual([code, says]);
      if (says) expect([code, failure.retryable]).toEqual([code, true]);
      if (/^\d{2}$/.test(code)) expect([code, NAB_CODES[code].category]).not.toEqual([code, 'timeout']);
    }
  });

  it('is the table of docs/providers/nab_transact.md', () => {
    const lines = readFileSync(fileURLToPath(new URL('../../../../docs/providers/nab_transact.md', import.meta.url)), 'utf8').split('\n');
    const header = lines.findIndex((line) => line.startsWith('| NAB code'));
    const table = lines.slice(
      header + 2,
      lines.findIndex((line, i) => i > header && !line.startsWith('|')),
    );
    const rows = table.map((line) => {
      const [code = '', category, retryable, message] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, ''));
      return [code, category, retryable === 'yes', message];
    });
    const sorted = <T extends unknown[]>(list: T[]) => [...list].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(sorted(rows)).toEqual(
      sorted(codes.map((code) => [code, NAB_CODES[code].category, NAB_CODES[code].retryable, NAB_CODES[code].message])),
    );
  });
});
