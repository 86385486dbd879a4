import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOLDER_NAME_OUTCOMES } from '@gateway/provider-fakes';
import { describe, expect, it } from 'vitest';
import type { AuthoriseRequest } from '../connector.js';
import { failureOf, valueOf } from '../testing.js';
import { ERRORS, REFUSALS } from './codes.js';
import { createAdyenConnector } from './connector.js';
import { adyenScenarios } from './scenarios.js';
import { attemptKey, card, cardSource, contractForTests, FAKE_ACCOUNT, payment, startAdyenContract, VISA } from './testing.js';

const contract = contractForTests();
const fake = () => contract().fake;
const connector = () => contract().connector;
const paymentsWith = (reference: string) =>
  fake()
    .payments()
    .filter((p) => p.reference === reference);
/** Payments that hold the payer's money (authorised and not cancelled) or took it (captured beyond refunds). */
const live = (reference: string) =>
  paymentsWith(reference).filter((p) => p.resultCode === 'Authorised' && !p.cancelled && (p.captured === 0 || p.captured > p.refunded));

describe('against the fake Adyen', () => {
  adyenScenarios(() => ({
    connector: contract().connector,
    wrongKey: contract().connectorWith({ apiKey: 'AQE-wrong-key-0000' }),
    fake: contract().fake,
    broughtToken: async () => {
      const shopperReference = `shopper-${attemptKey().slice(0, 8)}`;
      const providerToken = fake().addStoredPaymentMethod({
        shopperReference,
        number: VISA,
        expiryMonth: '03',
        expiryYear: '2030',
        holderName: 'Brought Card',
      });
      return { providerToken, shopperReference };
    },
  }));
});

describe('credential check', () => {
  /** A local server that accepts connections and answers as `answer` says (never, when it says nothing). */
  async function endpoint(answer?: (res: ServerResponse) => void) {
    const server = createServer((_req, res) => answer?.(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    };
    return { url, close };
  }
  const adyenAt = (baseUrl: string) =>
    createAdyenConnector({ baseUrl, timeoutMs: 300, apiKey: FAKE_ACCOUNT.apiKey, merchantAccount: FAKE_ACCOUNT.merchantAccount });

  it('names the cause: an endpoint unreachable, silent, or answering what Adyen does not', async () => {
    const gone = await endpoint();
    await gone.close();
    expect(await adyenAt(gone.url).checkCredentials()).toEqual({ ok: false, cause: 'unreachable' });
    const silent = await endpoint();
    expect(await adyenAt(silent.url).checkCredentials()).toEqual({ ok: false, cause: 'timed_out', timeoutMs: 300 });
    await silent.close();
    const page = await endpoint((res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
    expect(await adyenAt(page.url).checkCredentials()).toEqual({ ok: false, cause: 'answered', httpStatus: 404 });
    await page.close();
    const teapot = await endpoint((res) => res.writeHead(418, { 'content-type': 'application/json' }).end('{}'));
    expect(await adyenAt(teapot.url).checkCredentials()).toEqual({ ok: false, cause: 'answered', httpStatus: 418 });
    await teapot.close();
  });
});

describe('code table', () => {
  const triggers = Object.entries(HOLDER_NAME_OUTCOMES).filter(([, outcome]) => outcome.resultCode !== 'Received');

  it('is the table docs/providers/adyen.md shows', () => {
    const doc = readFileSync(new URL('../../../../docs/providers/adyen.md', import.meta.url), 'utf8');
    const documented = new Map(
      doc
        .split('\n')
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .filter((cells) => /^`(REFUSED|ERROR)_[0-9]+`$/.test(cells[2] ?? ''))
        .map((cells) => [cells[2]!.slice(1, -1), { category: cells[3], retryable: cells[5] === 'yes', message: cells[6] }]),
    );
    const rows = [
      ...Object.entries(REFUSALS).map(([code, row]) => [`REFUSED_${code}`, row] as const),
      ...Object.entries(ERRORS).map(([code, row]) => [`ERROR_${code}`, row] as const),
    ];
    for (const [code, { category, retryable, message }] of rows)
      expect(documented.get(code), code).toEqual({ category, retryable, message });
  });

  it('has a test trigger for every refusal row', () => {
    expect(new Set(triggers.map(([, outcome]) => outcome.refusalReasonCode))).toEqual(new Set(Object.keys(REFUSALS)));
  });

  it.each(triggers.map(([name, outcome]) => [outcome.refusalReasonCode, name] as const))(
    'maps refusal %s (card holder %s)',
    async (code, holderName) => {
      const row = REFUSALS[code]!;
      const failure = failureOf(await connector().authorise(payment(cardSource(VISA, { cardholder: holderName }))));
      expect(failure).toEqual({
        category: row.category,
        retryable: row.retryable,
        gatewayCode: `REFUSED_${code}`,
        gatewayMessage: row.message,
      });
    },
  );

  const errorCases: Array<[string, () => Promise<unknown>]> = [
    [
      '010',
      async () => {
        fake().setRawCardsAllowed(false);
        try {
          return await connector().authorise(payment(cardSource()));
        } finally {
          fake().setRawCardsAllowed(true);
        }
      },
    ],
    ['101', () => connector().authorise(payment(cardSource('4111111111111112')))],
    ['103', () => connector().authorise(payment(cardSource(VISA, { cvc: '12' })))],
    ['129', () => connector().authorise(payment(cardSource(VISA, { expiryMonth: 13 })))],
    ['137', () => connector().authorise(payment(cardSource(), { amount: -100n }))],
    [
      '138',
      async () => {
        const picky = await startAdyenContract({ currencies: ['EUR'] });
        try {
          return await picky.connector.authorise(payment(cardSource(), { currency: 'USD' }));
        } finally {
          expect(picky.fake.violations).toEqual([]);
          await picky.close();
        }
      },
    ],
    [
      '167',
      () => connector().capture({ providerChargeId: 'NOSUCHPAYMENT123', amount: 100n, currency: 'EUR', idempotencyKey: attemptKey() }),
    ],
    ['800', () => connector().describeStoredCard({ providerToken: 'NOSUCHTOKEN12345', providerData: { shopperReference: 'shopper-1' } })],
    ['901', () => contract().connectorWith({ merchantAccount: 'SomeoneElseECOM' }).authorise(payment(cardSource()))],
  ];

  it('has a case for every error row', () => {
    expect(errorCases.map(([code]) => code).sort()).toEqual(Object.keys(ERRORS).sort());
  });

  it.each(errorCases)('maps error %s', async (code, call) => {
    const row = ERRORS[code]!;
    expect(failureOf((await call()) as never)).toEqual({
      category: row.category,
      retryable: row.retryable,
      gatewayCode: `ERROR_${code}`,
      gatewayMessage: row.message,
    });
  });

  it('maps a key reused for another request (704) as invalid, a concurrent duplicate as retryable', async () => {
    const { providerChargeId } = valueOf(await connector().authorise(payment(cardSource())));
    const idempotencyKey = attemptKey();
    valueOf(await connector().capture({ providerChargeId, amount: 100n, currency: 'EUR', idempotencyKey }));
    const reused = failureOf(await connector().capture({ providerChargeId, amount: 200n, currency: 'EUR', idempotencyKey }));
    expect(reused).toMatchObject({ category: 'invalid_request', retryable: false, gatewayCode: 'ERROR_704' });

    const other = valueOf(await connector().authorise(payment(cardSource())));
    fake().injectFault({ kind: 'delay', ms: 300 }, { path: '/payments/{paymentPspReference}/captures' });
    const request = { providerChargeId: other.providerChargeId, amount: 100n, currency: 'EUR', idempotencyKey: attemptKey() };
    const [first, second] = await Promise.all([
      connector().capture(request),
      new Promise((r) => setTimeout(r, 50)).then(() => connector().capture(request)),
    ]);
    valueOf(first);
    expect(failureOf(second)).toMatchObject({ category: 'processor_error', retryable: true, gatewayCode: 'ERROR_704' });
  });

  it.each([
    [403, '999', { category: 'credentials_refused', retryable: false, gatewayCode: 'HTTP_403' }],
    [500, '000', { category: 'processor_error', retryable: true, gatewayCode: 'HTTP_500' }],
    [503, '000', { category: 'processor_error', retryable: true, gatewayCode: 'HTTP_503' }],
    [400, '702', { category: 'invalid_request', retryable: false, gatewayCode: 'HTTP_400' }],
  ] as const)('maps HTTP %s without a known code', async (status, errorCode, expected) => {
    fake().injectFault({ kind: 'error', status, errorCode }, { path: '/payments' });
    expect(failureOf(await connector().authorise(payment(cardSource())))).toMatchObject(expected);
  });

  it.each([
    ['RedirectShopper', 'authentication_required', false],
    ['IdentifyShopper', 'authentication_required', false],
    ['ChallengeShopper', 'authentication_required', false],
    ['PresentToShopper', 'authentication_required', false],
    ['Pending', 'timeout', true],
    ['Received', 'timeout', true],
    ['PartiallyAuthorised', 'timeout', true],
    ['Error', 'processor_error', true],
  ] as const)('maps result code %s', async (resultCode, category, retryable) => {
    fake().injectFault({ kind: 'answer', status: 200, body: { resultCode, pspReference: 'PSPOFTHEANSWER01' } }, { path: '/payments' });
    const kept: Array<Record<string, string>> = [];
    const failure = failureOf(await connector().authorise(payment(cardSource(), { keep: async (data) => void kept.push(data) })));
    expect(failure).toMatchObject({ category, retryable, gatewayCode: resultCode });
    // An undecided payment is reversed by its pspReference.
    expect(kept).toEqual(category === 'timeout' ? [{ pspReference: 'PSPOFTHEANSWER01' }] : []);
  });

  it('maps a refusal code it does not know as a plain refusal', async () => {
    fake().injectFault(
      { kind: 'answer', status: 200, body: { resultCode: 'Refused', refusalReasonCode: '99', pspReference: 'PSPOFTHEANSWER02' } },
      { path: '/payments' },
    );
    expect(failureOf(await connector().authorise(payment(cardSource())))).toMatchObject({
      category: 'do_not_honour',
      gatewayCode: 'REFUSED_99',
    });
  });

  it('treats an answer it cannot read as an unknown outcome', async () => {
    fake().injectFault({ kind: 'answer', status: 200, body: { resultCode: 'Authorised' } }, { path: '/payments' });
    expect(failureOf(await connector().authorise(payment(cardSource())))).toMatchObject({
      category: 'processor_error',
      retryable: true,
      gatewayCode: 'BAD_RESPONSE',
    });
  });

  it('maps a cut connection and a timeout as retryable unknown outcomes', async () => {
    fake().injectFault({ kind: 'reset', processed: false }, { path: '/payments' });
    expect(failureOf(await connector().authorise(payment(cardSource())))).toMatchObject({
      category: 'processor_error',
      retryable: true,
      gatewayCode: 'NETWORK',
    });
    fake().injectFault({ kind: 'hang', processed: false }, { path: '/payments' });
    const quick = contract().connectorWith({ timeoutMs: 200 });
    expect(failureOf(await quick.authorise(payment(cardSource())))).toMatchObject({
      category: 'timeout',
      retryable: true,
      gatewayCode: 'TIMEOUT',
    });
  });
});

describe('never twice', () => {
  const quick = () => contract().connectorWith({ timeoutMs: 200 });
  const keeping = (extra: Partial<AuthoriseRequest> = {}) => {
    const kept: Record<string, string> = {};
    const req = payment(cardSource(), { ...extra, keep: async (data) => void Object.assign(kept, data) });
    return { req, kept };
  };

  it('a payment Adyen never made: the reversal finds nothing to cancel', async () => {
    const { req } = keeping();
    fake().injectFault({ kind: 'hang', processed: false }, { path: '/payments' });
    expect(failureOf(await quick().authorise(req)).category).toBe('timeout');
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey }));
    expect(paymentsWith(req.idempotencyKey)).toEqual([]);
  });

  it('an authorisation whose answer was lost: cancelled by its reference', async () => {
    const { req } = keeping();
    fake().injectFault({ kind: 'hang', processed: true }, { path: '/payments' });
    expect(failureOf(await quick().authorise(req)).category).toBe('timeout');
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey }));
    expect(paymentsWith(req.idempotencyKey)).toMatchObject([
      { cancelled: true, modifications: [{ kind: 'technicalCancel', status: 'succeeded' }] },
    ]);
    expect(live(req.idempotencyKey)).toEqual([]);
  });

  it('a sale whose capture answer was lost: refunded by its pspReference', async () => {
    const { req, kept } = keeping({ capture: true });
    fake().injectFault({ kind: 'hang', processed: true }, { path: '/payments/{paymentPspReference}/captures' });
    expect(failureOf(await quick().authorise(req)).category).toBe('timeout');
    expect(kept).toEqual({ pspReference: paymentsWith(req.idempotencyKey)[0]!.pspReference });
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey, providerData: kept }));
    expect(paymentsWith(req.idempotencyKey)).toMatchObject([
      { captured: 1000, refunded: 1000, modifications: [{ kind: 'capture' }, { kind: 'reversal', action: 'refund' }] },
    ]);
    expect(live(req.idempotencyKey)).toEqual([]);
  });

  it('a sale whose capture never reached Adyen: cancelled by its pspReference', async () => {
    const { req, kept } = keeping({ capture: true });
    fake().injectFault({ kind: 'hang', processed: false }, { path: '/payments/{paymentPspReference}/captures' });
    expect(failureOf(await quick().authorise(req)).category).toBe('timeout');
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey, providerData: kept }));
    expect(paymentsWith(req.idempotencyKey)).toMatchObject([
      { captured: 0, cancelled: true, modifications: [{ kind: 'reversal', action: 'cancel' }] },
    ]);
  });

  it('a retry with the same key after a lost answer gets the same payment', async () => {
    const { req } = keeping();
    fake().injectFault({ kind: 'hang', processed: true }, { path: '/payments' });
    expect(failureOf(await quick().authorise(req)).category).toBe('timeout');
    const retried = valueOf(await connector().authorise(req));
    expect(paymentsWith(req.idempotencyKey).map((p) => p.pspReference)).toEqual([retried.providerChargeId]);
  });

  it('a sale whose capture Adyen refuses outright: the authorisation is released', async () => {
    const { req } = keeping({ capture: true });
    fake().injectFault({ kind: 'error', status: 422, errorCode: '167' }, { path: '/payments/{paymentPspReference}/captures' });
    expect(failureOf(await connector().authorise(req))).toMatchObject({ category: 'not_found', retryable: false });
    expect(paymentsWith(req.idempotencyKey)).toMatchObject([{ captured: 0, cancelled: true }]);
  });

  it('a reversal repeated is one reversal', async () => {
    const { req, kept } = keeping({ capture: true });
    valueOf(await connector().authorise(req));
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey, providerData: kept }));
    valueOf(await connector().reverse({ idempotencyKey: req.idempotencyKey, providerData: kept }));
    expect(paymentsWith(req.idempotencyKey)[0]!.modifications.filter((m) => m.kind === 'reversal')).toHaveLength(1);
  });

  it('every call that moves money carries its own key within 64 characters, the same on a retry', async () => {
    const req = payment(cardSource(), { capture: true, idempotencyKey: `${'k'.repeat(100)}:1` });
    const before = fake().requests.length;
    const first = valueOf(await connector().authorise(req));
    const again = valueOf(await connector().authorise(req));
    expect(again.providerChargeId).toBe(first.providerChargeId);
    const keys = fake()
      .requests.slice(before)
      .map((r) => `${r.path.replace(first.providerChargeId, '{psp}')} ${r.idempotencyKey}`);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((k) => k.split(' ')[1]!.length <= 64)).toBe(true);
    expect(paymentsWith(fake().payment(first.providerChargeId)!.reference)).toHaveLength(1);
    expect(fake().payment(first.providerChargeId)!.reference.length).toBeLessThanOrEqual(80);
  });
});

describe('amounts in Adyen units', () => {
  it.each([
    ['JPY', 1000n, 1000],
    ['BHD', 1234n, 1234],
    ['IDR', 1000n, 10],
    ['CLP', 1000n, 100000],
    ['ISK', 5n, 500],
    ['EUR', 1999n, 1999],
  ] as const)('%s %s (ISO minor units) reaches Adyen as %s', async (currency, amount, value) => {
    const { providerChargeId } = valueOf(await connector().authorise(payment(cardSource(), { currency, amount })));
    expect(fake().payment(providerChargeId)).toMatchObject({ currency, value });
  });
});

describe('notifications from the fake', () => {
  /** Where the receiver's reads stand once the notifications due so far have arrived. */
  const mark = async () => {
    await fake().flushNotifications();
    return contract().receiver.reads.length;
  };
  const readsSince = async (count: number) => {
    await fake().flushNotifications();
    return contract()
      .receiver.reads.slice(count)
      .flatMap((read) => {
        if (!read.ok) throw new Error(`unverified: ${read.reason}`);
        return read.notifications;
      });
  };

  it('tell the authorisation and the capture of a sale', async () => {
    const before = await mark();
    const req = payment(cardSource(), { capture: true });
    const { providerChargeId, capture } = valueOf(await connector().authorise(req));
    expect(await readsSince(before)).toEqual([
      {
        id: expect.stringMatching(/^AUTHORISATION:/),
        event: 'authorisation',
        success: true,
        providerChargeId,
        reference: req.idempotencyKey,
        amount: 1000n,
        currency: 'EUR',
      },
      expect.objectContaining({
        event: 'capture',
        success: true,
        providerChargeId,
        providerReference: capture!.providerReference,
        amount: 1000n,
      }),
    ]);
    expect(
      fake()
        .deliveries.slice(-2)
        .map((d) => [d.status, d.body]),
    ).toEqual([
      [200, '[accepted]'],
      [200, '[accepted]'],
    ]);
  });

  it('tell a refund that failed', async () => {
    const { providerChargeId } = valueOf(await connector().authorise(payment(cardSource(), { capture: true })));
    const before = await mark();
    fake().failNextModification('refund');
    const refund = valueOf(await connector().refund({ providerChargeId, amount: 300n, currency: 'EUR', idempotencyKey: attemptKey() }));
    expect(await readsSince(before)).toEqual([
      expect.objectContaining({
        event: 'refund',
        success: false,
        providerChargeId,
        providerReference: refund.providerReference,
        failure: expect.objectContaining({ gatewayCode: 'REFUND' }),
      }),
    ]);
    expect(fake().payment(providerChargeId)).toMatchObject({ refunded: 0 });
  });

  it('tell a capture that failed after it succeeded (card holder "capture failed")', async () => {
    const { providerChargeId } = valueOf(await connector().authorise(payment(cardSource(VISA, { cardholder: 'capture failed' }))));
    const before = await mark();
    valueOf(await connector().capture({ providerChargeId, amount: 1000n, currency: 'EUR', idempotencyKey: attemptKey() }));
    expect((await readsSince(before)).map((n) => [n.event, n.success, n.failure?.gatewayCode])).toEqual([
      ['capture', true, undefined],
      ['capture', false, 'CAPTURE_FAILED'],
    ]);
  });

  it('tell a refused authorisation in the gateway’s words', async () => {
    const before = await mark();
    failureOf(await connector().authorise(payment(cardSource(VISA, { cardholder: 'NOT_ENOUGH_BALANCE' }))));
    expect(await readsSince(before)).toEqual([
      expect.objectContaining({
        event: 'authorisation',
        success: false,
        failure: { category: 'insufficient_funds', retryable: false, gatewayCode: 'REFUSED_12', gatewayMessage: REFUSALS['12']!.message },
      }),
    ]);
  });
});

describe('card data', () => {
  it('never reaches the journal in full', async () => {
    valueOf(await connector().authorise(payment(cardSource())));
    expect(JSON.stringify(fake().requests)).not.toContain(VISA);
    expect(JSON.stringify(fake().requests)).not.toContain(`"cvc":"${card().cvc}"`);
  });

  it('is sent to Adyen only as Adyen asks for it', () => {
    const sent = fake().requests.find(
      (r) => r.path === '/payments' && (r.body as { paymentMethod?: { number?: string } })?.paymentMethod?.number,
    );
    expect(sent?.body).toMatchObject({
      merchantAccount: FAKE_ACCOUNT.merchantAccount,
      paymentMethod: { type: 'scheme', number: '411111******1111', expiryMonth: '03', expiryYear: '2030', cvc: '***' },
    });
  });
});
