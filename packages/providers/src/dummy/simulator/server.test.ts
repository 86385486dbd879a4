import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from './server.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const card = { number: '4111111111111111', expiryMonth: 12, expiryYear: 2030, cvc: '737' };
const source = { type: 'card', card };

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('wire format', () => {
  it('carries money as minor-unit strings, also on the inspection routes', async () => {
    const created = await post(
      '/v1/authorisations',
      { amount: '1999', currency: 'EUR', capture: true, source },
      { 'idempotency-key': 'wire-1' },
    );
    expect(created).toEqual({
      status: 200,
      body: {
        id: expect.stringMatching(/^auth_/),
        status: 'captured',
        amount: '1999',
        card: { iin: '411111', last4: '1111', length: 16, expiryMonth: 12, expiryYear: 2030 },
      },
    });

    const list = await (await fetch(`${sim.url}/v1/authorisations?idempotencyKey=wire-1`)).json();
    expect(list).toEqual({
      authorisations: [
        expect.objectContaining({ id: created.body.id, amount: '1999', captured: '1999', refunded: '0', cardLast4: '1111' }),
      ],
    });
    const ops = await (await fetch(`${sim.url}/v1/operations?idempotencyKey=wire-1`)).json();
    expect(ops).toEqual({
      operations: [{ kind: 'authorise', idempotencyKey: 'wire-1', subject: created.body.id, amount: '1999', code: '00', requests: 1 }],
    });
  });

  it.each([
    ['no idempotency key', '/v1/authorisations', { amount: '1', currency: 'EUR', capture: false, source }, {}],
    ['a body that is not JSON', '/v1/authorisations', '{', { 'idempotency-key': 'f-1' }],
    ['a numeric amount', '/v1/authorisations', { amount: 1, currency: 'EUR', capture: false, source }, { 'idempotency-key': 'f-2' }],
    [
      'a malformed card number',
      '/v1/authorisations',
      { amount: '1', currency: 'EUR', capture: false, source: { type: 'card', card: { ...card, number: '4111 1111 1111 1111' } } },
      { 'idempotency-key': 'f-3' },
    ],
    [
      'Apple Pay data that is not the test format',
      '/v1/authorisations',
      {
        amount: '1',
        currency: 'EUR',
        capture: false,
        source: {
          type: 'wallet',
          wallet: 'apple_pay',
          paymentData: { data: btoa('{"number":"4111111111111111"}'), signature: '', header: { transactionId: 't' }, version: 'EC_v1' },
        },
      },
      { 'idempotency-key': 'f-4' },
    ],
    ['a malformed card to tokenise', '/v1/single-use-tokens', { card: { ...card, expiryMonth: 13 } }, {}],
    [
      'a bad settlement delay header',
      '/v1/debits',
      { amount: '1', currency: 'AUD', account: { type: 'bank_account', bankCode: '062000', accountNumber: '12345678', accountName: 'A' } },
      { 'idempotency-key': 'f-5', 'x-simulator-settlement-delay': '-1' },
    ],
    ['a bad latency header', '/v1/reversals', { idempotencyKey: 'x' }, { 'x-simulator-latency': '80-50' }],
  ])('answers a format error for %s, without echoing values', async (_, path, body, headers) => {
    const res = await post(path, body, headers);
    expect(res).toEqual({ status: 400, body: { error: { code: '30', message: expect.stringMatching(/^Format error/) } } });
    expect(JSON.stringify(res.body)).not.toContain('4111');
  });

  it('answers 404 for an unknown route', async () => {
    expect((await post('/v1/nope', {})).status).toBe(404);
  });
});

it('closes promptly while holding a timeout-card request', async () => {
  const own = await startSimulator({ port: 0 });
  const held = fetch(`${own.url}/v1/authorisations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'held' },
    body: JSON.stringify({
      amount: '1',
      currency: 'EUR',
      capture: false,
      source: { type: 'card', card: { ...card, number: '4000000000000101' } },
    }),
  });
  await expect.poll(() => own.ledger.operations({ idempotencyKey: 'held' }).length).toBe(1);

  const started = performance.now();
  await own.close();
  expect(performance.now() - started).toBeLessThan(1_000);
  await expect(held).rejects.toThrow();
});
