import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FakeFailure, FakeStripe } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConnector } from '../connector.js';
import { STRIPE_CODES, type StripeCode } from './codes.js';
import { payment } from './scenarios.js';
import { failureOf } from '../testing.js';
import { startStripe } from './testing.js';

// Every row of the code table, answered by the fake Stripe to a payment intent and read back by the connector.
let fake: FakeStripe;
let connector: ProviderConnector;
beforeAll(async () => {
  ({ fake, connector } = await startStripe());
});
afterEach(() => expect(fake.violations).toEqual([]));
afterAll(() => fake.close());

/** Card errors Stripe answers with HTTP 402. */
const CARD_CODES = new Set([
  'expired_card',
  'incorrect_cvc',
  'invalid_cvc',
  'incorrect_number',
  'invalid_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'processing_error',
  'authentication_required',
  'payment_intent_authentication_failure',
  'card_decline_rate_limit_exceeded',
]);
const STATUS: Record<string, number> = {
  resource_missing: 404,
  api_key_expired: 401,
  idempotency_key_in_use: 409,
  lock_timeout: 409,
  rate_limit: 429,
};

/** How Stripe answers each row; absent rows are produced in the tests named in COVERED_ELSEWHERE. */
function answerFor(code: StripeCode): FakeFailure | undefined {
  if (code.startsWith('card_declined'))
    return { status: 402, type: 'card_error', code: 'card_declined', declineCode: code.split('/')[1] ?? 'not_a_known_reason' };
  if (CARD_CODES.has(code)) return { status: 402, type: 'card_error', code, declineCode: code };
  if (/^[a-z_]+$/.test(code)) return { status: STATUS[code] ?? 400, type: 'invalid_request_error', code };
  const synthetic: Record<string, FakeFailure> = {
    HTTP_401: { status: 401 },
    HTTP_403: { status: 403 },
    HTTP_404: { status: 404 },
    HTTP_409: { status: 409 },
    HTTP_429: { status: 429 },
    HTTP_5XX: { status: 503 },
    IDEMPOTENCY_ERROR: { status: 400, type: 'idempotency_error' },
    CARD_ERROR: { status: 402, type: 'card_error', code: 'a_code_stripe_adds_later' },
    INVALID_REQUEST: { status: 400, type: 'invalid_request_error', code: 'parameter_invalid_integer' },
  };
  return synthetic[code];
}

const COVERED_ELSEWHERE: Partial<Record<StripeCode, string>> = {
  RAW_CARD_DATA: 'connector.test.ts: answers not_permitted when the account may not send raw card numbers',
  REQUIRES_ACTION: 'connector.test.ts: cancels a payment intent that waits for 3-D Secure, and answers authentication_required',
  CANCELED: 'connector.test.ts: cancels a payment intent waiting for its challenge, which the payer can no longer complete',
  OTHER_PAYMENT: 'connector.test.ts: refuses a return that names another payment intent, without asking Stripe',
  TIMEOUT: 'connector.test.ts: timeout, then reverse',
  NETWORK: 'connector.test.ts: answers a retryable failure when Stripe cannot be reached',
  BAD_RESPONSE: 'connector.test.ts: answers BAD_RESPONSE for a payment intent in a state it cannot read as an outcome',
  AMOUNT: 'scenarios.ts: refuses an amount Stripe cannot express before calling it',
  REFUND_FAILED: 'connector.test.ts: answers a pending refund, and a refund that failed at once',
  NOT_REUSABLE: 'scenarios.ts: stores an unattached payment method from Stripe.js',
  UNKNOWN_TOKEN: 'scenarios.ts: refuses a token that is not Stripe’s, and a payment method it does not know',
  REVERSE_PARAMETERS: 'connector.test.ts: cannot replay without the attempt’s parameters',
};

const codes = Object.keys(STRIPE_CODES) as StripeCode[];

describe('the code table', () => {
  it.each(codes.filter((code) => answerFor(code)))('reads %s', async (code) => {
    fake.failNext({ method: 'POST', path: '/v1/payment_intents' }, answerFor(code)!);
    const failure = failureOf(await connector.authorise(payment({ type: 'stored_card', providerToken: 'pm_card_visa' })));
    const { category, retryable, message } = STRIPE_CODES[code];
    expect(failure).toEqual({ category, retryable, gatewayCode: code, gatewayMessage: message });
  });

  it('has every other row tested elsewhere, in a test that exists', () => {
    expect(codes.filter((code) => !answerFor(code)).sort()).toEqual(Object.keys(COVERED_ELSEWHERE).sort());
    for (const where of Object.values(COVERED_ELSEWHERE)) {
      const [file = '', title = ''] = where.split(': ');
      expect(readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8'), where).toContain(`('${title}'`);
    }
  });

  it('is the table of docs/providers/stripe.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/providers/stripe.md', import.meta.url)), 'utf8');
    const lines = doc.split('\n');
    const header = lines.findIndex((line) => line.startsWith('| Stripe code'));
    const table = lines.slice(
      header + 2,
      lines.findIndex((line, i) => i > header && !line.startsWith('|')),
    );
    const rows = table.map((line) => {
      const [code, category, error, retryable] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, ''));
      expect(error).toMatch(/^\w+ \(\d+\)$/);
      return [code, category, retryable === 'yes'];
    });
    expect(rows).toEqual(codes.map((code) => [code, STRIPE_CODES[code].category, STRIPE_CODES[code].retryable]));
  });
});
