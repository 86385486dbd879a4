import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHECKOUT_TEST_CARDS, startFakeCheckout, type FakeCheckout } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../testing.js';
import { APPROVED_CODES, declineFailure, ERROR_CODES, errorFailure, RESPONSE_CODES } from './codes.js';
import { createCheckoutConnector } from './connector.js';
import { attemptKey, card } from './scenarios.js';

// The code table: every row read as the connector reads it, the rows the sandbox's test cards reach
// answered by the fake and read back through the connector, and the doc page showing the same table.
const SECRET_KEY = 'sk_sbox_fakegatewaytestkey0002';
let fake: FakeCheckout;
const connector = () =>
  createCheckoutConnector({ baseUrl: fake.url, timeoutMs: 2_000, secretKey: SECRET_KEY, processingChannelId: 'pc_codes0001' });
const authorise = (number: string) =>
  connector().authorise({
    idempotencyKey: attemptKey(),
    amount: 1000n,
    currency: 'EUR',
    capture: false,
    source: { type: 'card', card: card(number) },
  });

beforeAll(async () => {
  fake = await startFakeCheckout({ secretKey: SECRET_KEY, webhookSecret: 'whsec-fake-checkout-0002' });
});
afterAll(() => fake.close());
afterEach(() => expect(fake.violations).toEqual([]));

const doc = readFileSync(fileURLToPath(new URL('../../../../docs/providers/checkout.md', import.meta.url)), 'utf8');
const docRow = (code: string) => doc.split('\n').find((line) => new RegExp(`^\\|\\s*\`${code}\`\\s*\\|`).test(line));

describe('response codes', () => {
  it.each(Object.entries(RESPONSE_CODES))('%s maps to its row, as the doc page shows', (code, row) => {
    expect(declineFailure(code)).toEqual({
      category: row.category,
      retryable: row.retryable,
      gatewayCode: code,
      gatewayMessage: row.message,
    });
    expect(docRow(code)).toContain(`\`${row.category}\``);
  });

  it.each(CHECKOUT_TEST_CARDS.filter((c) => c.responseCode !== '10000' && !c.threeDSecure).map((c) => [c.responseCode, c.number]))(
    '%s comes back through the connector for the test card %s',
    async (code, number) => {
      expect(failureOf(await authorise(number))).toMatchObject({ gatewayCode: code, category: RESPONSE_CODES[code]!.category });
    },
  );

  it('approves with 10000 and the other approval codes', () => {
    expect([...APPROVED_CODES]).toContain('10000');
    for (const code of APPROVED_CODES) expect(docRow(code)).toContain('approved');
  });

  it.each([
    ['49999', 'suspected_fraud'],
    ['39999', 'invalid_card'],
    ['29999', 'do_not_honour'],
  ])('an unlisted %s falls back by its class to %s', (code, category) => {
    expect(declineFailure(code)).toMatchObject({ gatewayCode: code, category, retryable: false });
  });
});

describe('error answers', () => {
  it.each(Object.entries(ERROR_CODES))('422 %s maps to its row, through the connector, as the doc page shows', async (code, row) => {
    fake.injectFault({ kind: 'error', status: 422, errorCodes: [code] }, { method: 'POST', route: '/payments' });
    expect(failureOf(await authorise(card().number))).toEqual({
      category: row.category,
      retryable: row.retryable,
      gatewayCode: code,
      gatewayMessage: row.message,
    });
    expect(docRow(code)).toContain(`\`${row.category}\``);
  });

  it.each([
    [401, 'credentials_refused', false],
    [403, 'credentials_refused', false],
    [404, 'not_found', false],
    [409, 'invalid_request', false],
    [429, 'processor_error', true],
    [502, 'processor_error', true],
    [400, 'invalid_request', false],
  ] as const)('HTTP %i without a known error code is %s (retryable %s)', async (status, category, retryable) => {
    fake.injectFault({ kind: 'error', status }, { method: 'POST', route: '/payments' });
    expect(failureOf(await authorise(card().number))).toMatchObject({ gatewayCode: `HTTP_${status}`, category, retryable });
    expect(errorFailure(status, []).category).toBe(category);
  });
});
