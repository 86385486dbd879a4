import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthoriseRequest, ProviderConnector } from '../connector.js';
import { createSimulatedConnector } from './connector.js';
import { simulatedIssuerPage } from './issuer-page.js';
import { startSimulator, type Simulator } from './simulator/server.js';
import { TEST_CARDS } from './simulator/test-cards.js';
import { applePaySource, cardSource, CVC, failureOf, payment, valueOf, VISA } from './testing.js';

const TIMEOUT_CARD = TEST_CARDS.find((c) => c.outcome === 'timeout')!.number;
const PROCESSOR_ERROR_CARD = TEST_CARDS.find((c) => c.outcome === 'processor_error')!.number;

let sim: Simulator;
let connector: ProviderConnector;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  connector = createSimulatedConnector({ baseUrl: sim.url, timeoutMs: 5_000, latency: { minMs: 0, maxMs: 0 } });
});
afterAll(() => sim.close());

function request(number = VISA, extra: Partial<AuthoriseRequest> = {}): AuthoriseRequest {
  return payment(cardSource(number), extra);
}

const summary = (number: string) => ({
  iin: number.slice(0, 6),
  last4: number.slice(-4),
  length: number.length,
  expiryMonth: 12,
  expiryYear: 2030,
});

async function charge(capture: boolean): Promise<string> {
  return valueOf(await connector.authorise(request(VISA, { capture }))).providerChargeId;
}

const authorisation = (id: string) => sim.ledger.authorisations().find((a) => a.id === id);
const live = (idempotencyKey: string) =>
  sim.ledger.authorisations({ idempotencyKey }).filter((a) => a.status === 'authorised' || a.status === 'captured');

describe('authorise', () => {
  // Cards that need 3-D Secure are refused without it (below); a frictionless one is approved.
  const approving = TEST_CARDS.filter((c) => c.outcome === 'approved' && (!c.threeDs || c.threeDs === 'frictionless')).map((c) => c.number);

  it.each(approving.flatMap((number) => [[number, false] as const, [number, true] as const]))(
    'approves %s (capture %s)',
    async (number, capture) => {
      const req = request(number, { capture });
      const result = valueOf(await connector.authorise(req));
      expect(result).toEqual({ providerChargeId: expect.any(String), captured: capture, amount: 1000n, card: summary(number) });
      expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toMatchObject([
        {
          id: result.providerChargeId,
          status: capture ? 'captured' : 'authorised',
          amount: 1000n,
          captured: capture ? 1000n : 0n,
          cardLast4: number.slice(-4),
          source: 'card',
        },
      ]);
    },
  );

  it('approves a card number not in the table', async () => {
    expect((await connector.authorise(request('6011111111111117'))).ok).toBe(true);
  });

  const declines = TEST_CARDS.filter((c) => !['approved', 'processor_error', 'timeout'].includes(c.outcome) && !c.threeDs);

  it.each(declines.map((c) => [c.number, c.outcome, c.responseCode]))('declines %s as %s (%s)', async (number, outcome, code) => {
    const req = request(number);
    const failure = failureOf(await connector.authorise(req));
    expect(failure).toMatchObject({ category: outcome, retryable: false, gatewayCode: code });
    expect(JSON.stringify(failure)).not.toMatch(new RegExp(`${number}|${CVC}`));
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toEqual([]);
  });

  it('declines a number failing the Luhn check as an invalid card', async () => {
    const failure = failureOf(await connector.authorise(request('4111111111111112')));
    expect(failure).toMatchObject({ category: 'invalid_card', retryable: false, gatewayCode: '14' });
    expect(JSON.stringify(failure)).not.toContain('4111111111111112');
  });

  it('reports a processor error as retryable', async () => {
    const failure = failureOf(await connector.authorise(request(PROCESSOR_ERROR_CARD)));
    expect(failure).toMatchObject({ category: 'processor_error', retryable: true, gatewayCode: '96' });
    expect(JSON.stringify(failure)).not.toContain(PROCESSOR_ERROR_CARD);
  });

  it('reports an unreachable acquirer as a retryable processor error', async () => {
    const gone = await startSimulator({ port: 0 });
    await gone.close();
    const offline = createSimulatedConnector({ baseUrl: gone.url, timeoutMs: 1_000, latency: { minMs: 0, maxMs: 0 } });
    const failure = failureOf(await offline.authorise(request()));
    expect(failure).toMatchObject({ category: 'processor_error', retryable: true, gatewayCode: 'NETWORK' });
    expect(JSON.stringify(failure)).not.toMatch(new RegExp(`${VISA}|${CVC}`));
  });
});

describe('3-D Secure', () => {
  const ISSUER_PAGE = 'https://gateway.example/simulator/3ds';
  const RETURN_URL = 'https://gateway.example/3ds/token-of-the-charge/return';
  const threeDsConnector = () =>
    createSimulatedConnector({ baseUrl: sim.url, timeoutMs: 5_000, latency: { minMs: 0, maxMs: 0 }, issuerPageUrl: ISSUER_PAGE });
  const authentication = { returnUrl: RETURN_URL, origin: 'https://shop.example', browser: {}, merchantName: 'Corner Shop' };
  const threeDsCard = (behaviour: string) => TEST_CARDS.find((c) => c.threeDs === behaviour)!.number;
  const resultOf = (c: ProviderConnector, providerChargeId: string, req: AuthoriseRequest) =>
    c.authenticationResult({
      providerChargeId,
      idempotencyKey: req.idempotencyKey,
      amount: req.amount,
      currency: req.currency,
      capture: req.capture,
    });
  /** What the payer presses on the issuer's page, as the page itself tells the acquirer. */
  const press = (challengeUrl: string, action: 'complete' | 'fail' | 'cancel') =>
    simulatedIssuerPage(sim.url).answer(challengeUrl.slice(ISSUER_PAGE.length + 1), action);

  it.each(['challenge', 'challenge_fails', 'challenge_then_decline', 'unavailable'])(
    'refuses a %s card without authentication (1A, authentication required), holding nothing',
    async (behaviour) => {
      const req = request(threeDsCard(behaviour));
      expect(failureOf(await connector.authorise(req))).toMatchObject({
        category: 'authentication_required',
        gatewayCode: '1A',
        retryable: false,
      });
      expect(live(req.idempotencyKey)).toEqual([]);
    },
  );

  it('challenges with authentication: nothing authorised until the payer completes it, then authenticated and captured', async () => {
    const c = threeDsConnector();
    const req = request(threeDsCard('challenge'), { capture: true, authentication });
    const started = valueOf(await c.authorise(req));
    expect(started).toMatchObject({ captured: false, challenge: { redirect: { method: 'GET' } } });
    expect(started.challenge!.redirect.url.startsWith(`${ISSUER_PAGE}/chl_`)).toBe(true);
    expect(live(req.idempotencyKey)).toEqual([]);
    expect(valueOf(await resultOf(c, started.providerChargeId, req))).toEqual({ state: 'waiting' });

    const page = await simulatedIssuerPage(sim.url).show(started.challenge!.redirect.url.slice(ISSUER_PAGE.length + 1));
    expect(page).toMatchObject({ status: 200 });
    const html = (page as { html: string }).html;
    for (const text of ['Corner Shop', '•••• 3220', 'Complete authentication', 'Fail authentication', 'Cancel'])
      expect(html).toContain(text);
    expect(html).not.toContain(threeDsCard('challenge'));

    expect(await press(started.challenge!.redirect.url, 'complete')).toEqual({ status: 303, location: RETURN_URL });
    const done = valueOf(await resultOf(c, started.providerChargeId, req));
    expect(done).toEqual({
      state: 'authorised',
      authorisation: {
        providerChargeId: started.providerChargeId,
        captured: true,
        amount: 1000n,
        threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true },
      },
    });
    // Pressing again changes nothing.
    expect(await press(started.challenge!.redirect.url, 'fail')).toEqual({ status: 303, location: RETURN_URL });
    expect(valueOf(await resultOf(c, started.providerChargeId, req))).toEqual(done);
    expect(live(req.idempotencyKey)).toHaveLength(1);
  });

  it.each([
    ['challenge', 'fail', 'authentication_required', '1A', 'N'],
    ['challenge', 'cancel', 'authentication_required', '1A', 'N'],
    ['challenge_fails', 'complete', 'authentication_required', '1A', 'N'],
    ['challenge_then_decline', 'complete', 'do_not_honour', '05', 'Y'],
  ] as const)('a %s card, %s pressed: failed as %s (%s), transStatus %s', async (behaviour, action, category, code, transStatus) => {
    const c = threeDsConnector();
    const req = request(threeDsCard(behaviour), { authentication });
    const started = valueOf(await c.authorise(req));
    await press(started.challenge!.redirect.url, action);
    const result = valueOf(await resultOf(c, started.providerChargeId, req));
    expect(result).toMatchObject({
      state: 'failed',
      failure: { category, gatewayCode: code },
      threeDs: { flow: 'challenge', transStatus },
    });
    expect(live(req.idempotencyKey)).toEqual([]);
  });

  it('cancels a payment waiting for its payer by reversal: completing the challenge afterwards revives nothing', async () => {
    const c = threeDsConnector();
    const req = request(threeDsCard('challenge'), { authentication });
    const started = valueOf(await c.authorise(req));
    valueOf(await c.reverse({ idempotencyKey: req.idempotencyKey }));
    await press(started.challenge!.redirect.url, 'complete');
    expect(valueOf(await resultOf(c, started.providerChargeId, req))).toMatchObject({
      state: 'failed',
      failure: { category: 'authentication_required' },
    });
    expect(live(req.idempotencyKey)).toEqual([]);
  });

  it('authenticates a frictionless card without a challenge when allowed, and merely approves it otherwise', async () => {
    const c = threeDsConnector();
    const allowed = valueOf(await c.authorise(request(threeDsCard('frictionless'), { authentication })));
    expect(allowed).toMatchObject({ captured: false, threeDs: { flow: 'frictionless', transStatus: 'Y', liabilityShift: true } });
    expect(allowed.challenge).toBeUndefined();
    expect(valueOf(await c.authorise(request(threeDsCard('frictionless')))).threeDs).toBeUndefined();
  });

  it('takes an authentication run elsewhere: approved with it, refused when it says the payer was not authenticated', async () => {
    const external = { eci: '05', authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', dsTransID: randomUUID(), threeDsVersion: '2.2.0' };
    const approved = valueOf(await connector.authorise(request(threeDsCard('challenge'), { externalThreeDs: external })));
    expect(approved.threeDs).toEqual({ transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true });
    const refused = failureOf(
      await connector.authorise(request(threeDsCard('challenge'), { externalThreeDs: { ...external, transStatus: 'N' } })),
    );
    expect(refused).toMatchObject({ category: 'authentication_required', gatewayCode: '1A' });
  });
});

describe('card verification', () => {
  it('authorises nothing for an amount of 0, and the verification can be voided', async () => {
    const { providerChargeId, amount, captured } = valueOf(await connector.authorise(request(VISA, { amount: 0n })));
    expect({ amount, captured }).toEqual({ amount: 0n, captured: false });
    valueOf(await connector.void({ providerChargeId, idempotencyKey: randomUUID() }));
    expect(authorisation(providerChargeId)).toMatchObject({ status: 'voided', amount: 0n });
  });

  it('refuses to capture an amount of 0', async () => {
    expect(failureOf(await connector.authorise(request(VISA, { amount: 0n, capture: true })))).toMatchObject({ gatewayCode: '30' });
  });

  it('declines a card whose expiry has passed', async () => {
    const failure = failureOf(await connector.authorise(payment(cardSource(VISA, { expiryMonth: 1, expiryYear: 2020 }))));
    expect(failure).toMatchObject({ category: 'expired_card', gatewayCode: '54' });
  });
});

describe('Apple Pay', () => {
  const wallet = { cardNumber: '5555555555554444', expiryMonth: 12, expiryYear: 2030, cardholder: 'A Payer' };

  it('charges the card in the payment data and tells which card it was', async () => {
    const result = valueOf(await connector.authorise(payment(applePaySource(wallet), { capture: true })));
    expect(result).toMatchObject({ captured: true, card: { ...summary(wallet.cardNumber), cardholder: 'A Payer' } });
    expect(authorisation(result.providerChargeId)).toMatchObject({ source: 'wallet', cardLast4: '4444' });
  });

  it('gives the card number its test-card behaviour', async () => {
    const failure = failureOf(await connector.authorise(payment(applePaySource({ ...wallet, cardNumber: '4000000000009995' }))));
    expect(failure).toMatchObject({ category: 'insufficient_funds', gatewayCode: '51' });
  });

  it.each([
    ['another version', applePaySource(wallet, { version: 'EC_v2' })],
    ['data that is not base64', applePaySource(wallet, { data: '%%%' })],
    ['data without a card number', applePaySource({ ...wallet, cardNumber: undefined })],
    ['no transaction id', applePaySource(wallet, { header: {} })],
  ])('refuses %s as a format error, without echoing the data', async (_, source) => {
    const failure = failureOf(await connector.authorise(payment(source)));
    expect(failure).toMatchObject({ category: 'invalid_request', gatewayCode: '30', retryable: false });
    expect(JSON.stringify(failure)).not.toContain(source.paymentData.data);
  });
});

describe('timeout and reversal', () => {
  it('times out on the timeout card, and reverse cancels the authorisation the acquirer made', async () => {
    const impatient = createSimulatedConnector({ baseUrl: sim.url, timeoutMs: 300, latency: { minMs: 0, maxMs: 0 } });
    const req = request(TIMEOUT_CARD);

    const started = performance.now();
    const failure = failureOf(await impatient.authorise(req));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failure).toMatchObject({ category: 'timeout', retryable: true, gatewayCode: 'TIMEOUT' });
    expect(JSON.stringify(failure)).not.toMatch(new RegExp(`${TIMEOUT_CARD}|${CVC}`));
    expect(live(req.idempotencyKey)).toHaveLength(1);

    expect(await connector.reverse({ idempotencyKey: req.idempotencyKey })).toEqual({ ok: true, value: undefined });
    expect(live(req.idempotencyKey)).toEqual([]);
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toMatchObject([{ status: 'reversed' }]);
  });

  it('reverses a sale', async () => {
    const req = request(VISA, { capture: true });
    valueOf(await connector.authorise(req));
    valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey }));
    expect(live(req.idempotencyKey)).toEqual([]);
  });

  it('is safe when nothing happened, and refuses the key afterwards', async () => {
    const req = request();
    valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey }));
    expect(failureOf(await connector.authorise(req))).toMatchObject({ category: 'invalid_request', retryable: false });
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toEqual([]);
  });
});

describe('capture, void and refund rules', () => {
  const key = () => randomUUID();

  it('captures part of an authorisation once', async () => {
    const id = await charge(false);
    expect(await connector.capture({ providerChargeId: id, amount: 600n, idempotencyKey: key() })).toEqual({
      ok: true,
      value: { amount: 600n },
    });
    expect(failureOf(await connector.capture({ providerChargeId: id, amount: 400n, idempotencyKey: key() }))).toMatchObject({
      category: 'invalid_request',
      retryable: false,
    });
    expect(authorisation(id)).toMatchObject({ status: 'captured', captured: 600n });
  });

  it('refuses to capture more than authorised', async () => {
    const id = await charge(false);
    expect(failureOf(await connector.capture({ providerChargeId: id, amount: 1001n, idempotencyKey: key() }))).toMatchObject({
      category: 'over_limit',
    });
    expect(authorisation(id)).toMatchObject({ status: 'authorised', captured: 0n });
  });

  it('answers not_found for an unknown charge', async () => {
    expect(failureOf(await connector.capture({ providerChargeId: 'auth_nope', amount: 1n, idempotencyKey: key() }))).toMatchObject({
      category: 'not_found',
    });
  });

  it('voids only an uncaptured authorisation', async () => {
    const id = await charge(false);
    expect(await connector.void({ providerChargeId: id, idempotencyKey: key() })).toEqual({ ok: true, value: {} });
    expect(failureOf(await connector.capture({ providerChargeId: id, amount: 1n, idempotencyKey: key() })).category).toBe(
      'invalid_request',
    );

    const captured = await charge(true);
    expect(failureOf(await connector.void({ providerChargeId: captured, idempotencyKey: key() })).category).toBe('invalid_request');
    expect(authorisation(captured)).toMatchObject({ status: 'captured' });
  });

  it('refunds at most the captured amount', async () => {
    expect(failureOf(await connector.refund({ providerChargeId: await charge(false), amount: 1n, idempotencyKey: key() })).category).toBe(
      'invalid_request',
    );

    const id = await charge(true);
    valueOf(await connector.refund({ providerChargeId: id, amount: 700n, idempotencyKey: key() }));
    expect(failureOf(await connector.refund({ providerChargeId: id, amount: 301n, idempotencyKey: key() })).category).toBe('over_limit');
    valueOf(await connector.refund({ providerChargeId: id, amount: 300n, idempotencyKey: key() }));
    expect(authorisation(id)).toMatchObject({ captured: 1000n, refunded: 1000n });
  });
});

describe('idempotency', () => {
  const operations = (idempotencyKey: string) => sim.ledger.operations({ idempotencyKey });

  it('replays an authorisation', async () => {
    const req = request();
    const first = await connector.authorise(req);
    expect(await connector.authorise(req)).toEqual(first);
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toHaveLength(1);
    expect(operations(req.idempotencyKey)).toMatchObject([{ kind: 'authorise', code: '00', requests: 2 }]);
  });

  it('replays a decline', async () => {
    const req = request('4000000000000002');
    const first = await connector.authorise(req);
    expect(await connector.authorise(req)).toEqual(first);
    expect(operations(req.idempotencyKey)).toMatchObject([{ kind: 'authorise', code: '05', requests: 2 }]);
  });

  it('applies concurrent requests with one key once', async () => {
    const req = request();
    const results = await Promise.all(Array.from({ length: 10 }, () => connector.authorise(req)));
    expect(new Set(results.map((r) => valueOf(r).providerChargeId)).size).toBe(1);
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toHaveLength(1);
    expect(operations(req.idempotencyKey)).toMatchObject([{ requests: 10 }]);
  });

  it('replays a capture', async () => {
    const id = await charge(false);
    const req = { providerChargeId: id, amount: 500n, idempotencyKey: randomUUID() };
    expect(await connector.capture(req)).toEqual({ ok: true, value: { amount: 500n } });
    expect(await connector.capture(req)).toEqual({ ok: true, value: { amount: 500n } });
    expect(authorisation(id)).toMatchObject({ captured: 500n });
    expect(operations(req.idempotencyKey)).toMatchObject([{ kind: 'capture', requests: 2 }]);
  });

  it('replays a void', async () => {
    const req = { providerChargeId: await charge(false), idempotencyKey: randomUUID() };
    expect((await connector.void(req)).ok).toBe(true);
    expect((await connector.void(req)).ok).toBe(true);
    expect(operations(req.idempotencyKey)).toMatchObject([{ kind: 'void', requests: 2 }]);
  });

  it('replays a refund', async () => {
    const id = await charge(true);
    const req = { providerChargeId: id, amount: 400n, idempotencyKey: randomUUID() };
    const first = valueOf(await connector.refund(req));
    expect(valueOf(await connector.refund(req))).toEqual(first);
    expect(authorisation(id)).toMatchObject({ refunded: 400n });
  });

  it('replays a reversal', async () => {
    const req = request();
    valueOf(await connector.authorise(req));
    valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey }));
    valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey }));
    expect(sim.ledger.operations({ idempotencyKey: req.idempotencyKey, kind: 'reversal' })).toMatchObject([{ requests: 2 }]);
  });

  it('refuses a key reused with a different request', async () => {
    const req = request();
    valueOf(await connector.authorise(req));
    expect(failureOf(await connector.authorise({ ...req, amount: 999n }))).toMatchObject({
      category: 'invalid_request',
      gatewayCode: '94',
    });
    expect(sim.ledger.authorisations({ idempotencyKey: req.idempotencyKey })).toMatchObject([{ amount: 1000n }]);
  });
});

it('never refunds more than captured under 20 concurrent refunds', async () => {
  const id = await charge(true);
  const amounts = Array.from({ length: 20 }, (_, i) => BigInt(50 + i * 10));
  const results = await Promise.all(
    amounts.map((amount) => connector.refund({ providerChargeId: id, amount, idempotencyKey: randomUUID() })),
  );

  const refunded = results.reduce((sum, r, i) => (r.ok ? sum + amounts[i]! : sum), 0n);
  expect(refunded).toBeLessThanOrEqual(1000n);
  expect(results.filter((r) => !r.ok).every((r) => failureOf(r).category === 'over_limit')).toBe(true);
  expect(authorisation(id)).toMatchObject({ captured: 1000n, refunded });
});

it('waits for the configured latency', async () => {
  const slow = createSimulatedConnector({ baseUrl: sim.url, timeoutMs: 5_000, latency: { minMs: 50, maxMs: 80 } });
  const started = performance.now();
  valueOf(await slow.authorise(request()));
  // Timers have millisecond granularity, so allow a fraction of a millisecond early.
  expect(performance.now() - started).toBeGreaterThanOrEqual(49);
});
