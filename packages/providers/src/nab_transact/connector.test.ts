import { startFakeNab, type FakeNab, type NabFault } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConnector, ProviderResult } from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { NAB_CURRENCIES_VARIABLE } from './currencies.js';
import { key, nabScenarios, payment, TEST_CARD } from './scenarios.js';
import { NAB_TRANSACT } from './type.js';

const CREDENTIALS = { MerchantId: 'XYZ0010', Password: 'abcd1234' };

let fake: FakeNab;
const connectorOf = (parameters: Record<string, string> = CREDENTIALS, timeoutMs = 2_000) =>
  NAB_TRANSACT.connector({ baseUrl: fake.url, timeoutMs, environment: 'SANDBOX', parameters });
let connector: ProviderConnector;

beforeAll(async () => {
  fake = await startFakeNab({ merchantId: CREDENTIALS.MerchantId, password: CREDENTIALS.Password });
  connector = connectorOf();
});
afterEach(() => expect(fake.violations).toEqual([]));
afterAll(() => fake.close());

describe('against the fake NAB Transact', () => {
  nabScenarios(() => ({ connector }));

  it('sends amounts in cents, one purchase order number per attempt, and the card masked in every kept message', async () => {
    const first = payment({ amount: 1234_00n, idempotencyKey: 'charge-1:1' });
    valueOf(await connector.authorise(first));
    valueOf(await connector.authorise({ ...first, idempotencyKey: 'charge-1:2' }));
    const held = fake.transactions().filter((t) => t.purchaseOrderNo.startsWith('charge-1:'));
    expect(held.map((t) => [t.purchaseOrderNo, t.authorised])).toEqual([
      ['charge-1:1', 123400],
      ['charge-1:2', 123400],
    ]);
    const sent = fake.requests.filter((r) => r.body.includes('charge-1:'));
    expect(sent.every((r) => r.body.includes('<cardNumber>444433******1111</cardNumber>') && !r.body.includes(TEST_CARD.number))).toBe(
      true,
    );
  });

  it('escapes what it sends: a password with XML in it reaches NAB as text', async () => {
    const odd = 'a<b>&"c\'';
    const other = await startFakeNab({ merchantId: 'ABC0001', password: odd });
    try {
      const c = NAB_TRANSACT.connector({
        baseUrl: other.url,
        timeoutMs: 2_000,
        environment: 'SANDBOX',
        parameters: { MerchantId: 'ABC0001', Password: odd },
      });
      valueOf(await c.authorise(payment()));
      expect(other.violations).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('answers the credentials refused for another merchant id or password', async () => {
    expect(await connectorOf({ MerchantId: 'XYZ0011', Password: 'abcd1234' }).checkCredentials()).toMatchObject({
      ok: false,
      cause: 'refused',
    });
    expect(failureOf(await connectorOf({ MerchantId: 'XYZ0010', Password: 'wrong' }).authorise(payment()))).toMatchObject({
      category: 'credentials_refused',
      gatewayCode: 'status/550',
    });
  });

  it('refuses a currency NAB does not take for the merchant before calling it, and takes one the operator allows', async () => {
    const before = fake.requests.length;
    expect(failureOf(await connector.authorise(payment({ currency: 'USD' })))).toMatchObject({
      category: 'invalid_amount',
      gatewayCode: 'AMOUNT',
    });
    expect(fake.requests.length).toBe(before);
    expect(NAB_TRANSACT.currencies).toEqual(['AUD']);
    process.env[NAB_CURRENCIES_VARIABLE] = 'NZD, usd,XXQ';
    try {
      expect(NAB_TRANSACT.currencies).toEqual(['AUD', 'NZD', 'USD']);
      expect(NAB_TRANSACT.providerAmount('JPY', 100n)).toBeUndefined();
      valueOf(await connector.authorise(payment({ currency: 'USD' })));
    } finally {
      delete process.env[NAB_CURRENCIES_VARIABLE];
    }
  });

  it('timeout, then reverse: by the transaction id when NAB answered late, outcome unknown when it never answered', async () => {
    const slow = connectorOf(CREDENTIALS, 300);
    fake.hangNext('0', { processed: true });
    const { req, reverse } = kept(payment({ idempotencyKey: key('hang') }));
    expect(failureOf(await slow.authorise(req))).toMatchObject({ category: 'timeout', gatewayCode: 'TIMEOUT', retryable: true });
    // NAB made the payment, but its txnID never reached the gateway: it cannot be asked for it.
    expect(failureOf(await slow.reverse(reverse()))).toMatchObject({ gatewayCode: 'OUTCOME_UNKNOWN', retryable: false });
    expect(fake.transactions().filter((t) => t.purchaseOrderNo === req.idempotencyKey)).toEqual([
      expect.objectContaining({ reversed: false }),
    ]);
  });

  it('reverses nothing after a retryable decline NAB answered without a transaction', async () => {
    const { req, reverse } = kept(payment({ amount: 1091n }));
    expect(failureOf(await connector.authorise(req))).toMatchObject({ category: 'processor_error', gatewayCode: '91', retryable: true });
    valueOf(await connector.reverse(reverse()));
  });

  it.each(['111', '112'])(
    'answers %s without a transaction id (the bank’s answer lost) as an unknown outcome, which reverse cannot settle',
    async (code) => {
      fake.failNext('0', { kind: 'declined', responseCode: code }, { processed: true });
      const { req, reverse } = kept(payment({ idempotencyKey: key(`lost-${code}`) }));
      expect(failureOf(await connector.authorise(req))).toMatchObject({ category: 'timeout', retryable: true, gatewayCode: code });
      // NAB may hold the payment, and without its txnID cannot be asked for it.
      expect(failureOf(await connector.reverse(reverse()))).toMatchObject({ gatewayCode: 'OUTCOME_UNKNOWN', retryable: false });
      expect(fake.transactions().filter((t) => t.purchaseOrderNo === req.idempotencyKey)).toEqual([
        expect.objectContaining({ reversed: false }),
      ]);
    },
  );

  it('reverses by the transaction id NAB quoted with 111', async () => {
    fake.failNext('0', { kind: 'declined', responseCode: '111', withTxnID: true }, { processed: true });
    const { req, reverse } = kept(payment({ idempotencyKey: key('lost-quoted') }));
    expect(failureOf(await connector.authorise(req))).toMatchObject({ category: 'timeout', gatewayCode: '111' });
    valueOf(await connector.reverse(reverse()));
    expect(fake.transactions().filter((t) => t.purchaseOrderNo === req.idempotencyKey)).toEqual([
      expect.objectContaining({ reversed: true }),
    ]);
  });

  describe('no definite answer is an unknown outcome (timeout), a definite one never is', () => {
    const slow = () => connectorOf(CREDENTIALS, 300);
    /** Each operation, with what it needs made first, and the txnType it sends. */
    const operations: Array<[string, string, (c: ProviderConnector) => Promise<ProviderResult<unknown>>]> = [
      ['authorise', '0', async (c) => c.authorise(payment())],
      [
        'capture',
        '11',
        async (c) => {
          const { providerChargeId } = valueOf(await connector.authorise(payment({ capture: false })));
          return c.capture({ providerChargeId, amount: 1000n, idempotencyKey: key('capture') });
        },
      ],
      [
        'void',
        '6',
        async (c) => {
          const { providerChargeId } = valueOf(await connector.authorise(payment({ capture: false })));
          return c.void({ providerChargeId, idempotencyKey: key('void') });
        },
      ],
      [
        'refund',
        '4',
        async (c) => {
          const { providerChargeId } = valueOf(await connector.authorise(payment()));
          return c.refund({ providerChargeId, amount: 500n, idempotencyKey: key('refund') });
        },
      ],
    ];
    const unknown: Array<[string, NabFault, string]> = [
      ['no answer in time', { kind: 'hang' }, 'TIMEOUT'],
      ['the connection lost', { kind: 'drop' }, 'NETWORK'],
      ['a server error', { kind: 'http', status: 503 }, 'HTTP_5XX'],
      ['an answer that is not NAB’s', { kind: 'unreadable' }, 'BAD_RESPONSE'],
      ['111 (the bank’s connection lost)', { kind: 'declined', responseCode: '111' }, '111'],
      ['112 (the bank did not answer NAB)', { kind: 'declined', responseCode: '112' }, '112'],
    ];
    const cases = operations.flatMap(([name, txnType, run]) =>
      unknown.map(([what, fault, code]) => [name, what, txnType, run, fault, code] as const),
    );

    it.each(cases)('%s after %s', async (_name, _what, txnType, run, fault, code) => {
      fake.failNext(txnType, fault);
      expect(failureOf(await run(slow()))).toMatchObject({ category: 'timeout', retryable: true, gatewayCode: code });
    });

    it.each(operations)('%s refused with 91 (a decline that may be retried) is no unknown outcome', async (_name, txnType, run) => {
      fake.failNext(txnType, { kind: 'declined', responseCode: '91' }, { processed: false });
      expect(failureOf(await run(slow()))).toMatchObject({ category: 'processor_error', retryable: true, gatewayCode: '91' });
    });
  });

  it('answers UNREACHABLE (nothing sent) when no connection to NAB can be made, BAD_RESPONSE for an answer that is not NAB’s', async () => {
    const closed = NAB_TRANSACT.connector({
      baseUrl: 'http://127.0.0.1:1',
      timeoutMs: 500,
      environment: 'SANDBOX',
      parameters: CREDENTIALS,
    });
    // The gateway keeps an attempt's parameters before the call (keep({})): its reversal then has nothing to do.
    const { req, reverse } = kept(payment());
    await req.keep!({});
    expect(failureOf(await closed.authorise(req))).toMatchObject({
      category: 'processor_error',
      gatewayCode: 'UNREACHABLE',
      retryable: true,
    });
    valueOf(await closed.reverse(reverse()));
    const notNab = NAB_TRANSACT.connector({
      baseUrl: `${fake.url}/nowhere`,
      timeoutMs: 500,
      environment: 'SANDBOX',
      parameters: CREDENTIALS,
    });
    expect(failureOf(await notNab.authorise(payment()))).toMatchObject({
      category: 'timeout',
      gatewayCode: 'BAD_RESPONSE',
      retryable: true,
    });
    expect(fake.violations).toEqual([{ path: '/nowhere/xmlapi/payment', problems: ['not an address of NAB Transact'] }]);
    fake.violations.length = 0;
  });

  it('refuses, without calling NAB, a capture, void or refund of a charge id it did not make', async () => {
    const before = fake.requests.length;
    const foreign = { providerChargeId: 'pi_123', idempotencyKey: key('foreign') };
    const sale = valueOf(await connector.authorise(payment()));
    const refusals = [
      await connector.capture({ ...foreign, amount: 100n }),
      await connector.void(foreign),
      await connector.refund({ ...foreign, amount: 100n }),
      // A sale has no pre-authorisation to complete.
      await connector.capture({ ...foreign, providerChargeId: sale.providerChargeId, amount: 100n }),
    ];
    for (const refused of refusals) {
      expect(failureOf(refused)).toMatchObject({ category: 'invalid_request', gatewayCode: 'NOT_NAB_PAYMENT', retryable: false });
    }
    expect(fake.requests.length).toBe(before + 1);
  });
});
