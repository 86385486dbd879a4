import { randomUUID } from 'node:crypto';
import { passesLuhn } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardDetails, ProviderConnector, StoredCard } from '../connector.js';
import type { Simulator } from './simulator/server.js';
import { CVC, failureOf, payment, startClockedSimulator, valueOf, VISA } from './testing.js';

const INSUFFICIENT_FUNDS = '4000000000009995';
const DAY_MS = 24 * 60 * 60 * 1000;

let sim: Simulator;
let connector: ProviderConnector;
let advance: (ms: number) => void;

beforeAll(async () => {
  ({ sim, connector, advance } = await startClockedSimulator());
});
afterAll(() => sim.close());

const details = (number = VISA, changes: Partial<CardDetails> = {}): CardDetails => ({
  number,
  expiryMonth: 12,
  expiryYear: 2030,
  cvc: CVC,
  cardholder: 'A Payer',
  ...changes,
});

async function store(card = details()): Promise<StoredCard> {
  return valueOf(await connector.storeCard({ idempotencyKey: randomUUID(), source: { type: 'card', card } }));
}

async function singleUseToken(card = details()): Promise<string> {
  const res = await fetch(`${sim.url}/v1/single-use-tokens`, { method: 'POST', body: JSON.stringify({ card }) });
  return ((await res.json()) as { token: string }).token;
}

const storedSource = (providerToken: string) => ({ type: 'stored_card', providerToken }) as const;

describe('stored cards', () => {
  it('keeps a summary of the card, and charges it as the number would have been', async () => {
    const stored = await store();
    expect(stored).toEqual({
      providerToken: expect.stringMatching(/^tok_/),
      card: { iin: '411111', last4: '1111', length: 16, expiryMonth: 12, expiryYear: 2030, cardholder: 'A Payer' },
    });
    const charged = valueOf(await connector.authorise(payment(storedSource(stored.providerToken), { recurring: true })));
    expect(charged).toMatchObject({ amount: 1000n, card: stored.card });
    expect(sim.ledger.authorisations().find((a) => a.id === charged.providerChargeId)).toMatchObject({
      source: 'stored_card',
      recurring: true,
    });
  });

  it('remembers the behaviour of a declining test card', async () => {
    const { providerToken } = await store(details(INSUFFICIENT_FUNDS));
    const failure = failureOf(await connector.authorise(payment({ ...storedSource(providerToken), cvc: CVC })));
    expect(failure).toMatchObject({ category: 'insufficient_funds', gatewayCode: '51' });
  });

  it('refuses to store a number failing the Luhn check', async () => {
    const failure = failureOf(
      await connector.storeCard({ idempotencyKey: randomUUID(), source: { type: 'card', card: details('4111111111111112') } }),
    );
    expect(failure).toMatchObject({ category: 'invalid_card', gatewayCode: '14' });
  });

  it('declines a stored card once its expiry has passed, until it is updated', async () => {
    const { providerToken } = await store(details(VISA, { expiryMonth: 1, expiryYear: 2026 }));
    valueOf(await connector.authorise(payment(storedSource(providerToken))));
    advance(31 * DAY_MS);
    expect(failureOf(await connector.authorise(payment(storedSource(providerToken))))).toMatchObject({ category: 'expired_card' });

    const updated = valueOf(await connector.updateStoredCard({ providerToken, expiryYear: 2031, cardholder: 'B Payer' }));
    expect(updated.card).toMatchObject({ expiryMonth: 1, expiryYear: 2031, cardholder: 'B Payer' });
    expect(valueOf(await connector.describeStoredCard({ providerToken }))).toEqual(updated);
    valueOf(await connector.authorise(payment(storedSource(providerToken))));
  });

  it('forgets a deleted card and its network tokens', async () => {
    const { providerToken } = await store();
    const { networkTokenId } = valueOf(await connector.createNetworkToken({ idempotencyKey: randomUUID(), providerToken }));
    expect(await connector.deleteStoredCard({ providerToken })).toEqual({ ok: true, value: undefined });

    for (const result of [
      await connector.authorise(payment(storedSource(providerToken))),
      await connector.authorise(payment({ type: 'network_token', networkTokenId })),
      await connector.describeStoredCard({ providerToken }),
      await connector.updateStoredCard({ providerToken, expiryYear: 2031 }),
      await connector.deleteStoredCard({ providerToken }),
    ]) {
      expect(failureOf(result)).toMatchObject({ category: 'not_found', gatewayCode: '25' });
    }
  });

  it('replays a store by key, and refuses the key for another card', async () => {
    const req = { idempotencyKey: randomUUID(), source: { type: 'card', card: details() } } as const;
    const first = valueOf(await connector.storeCard(req));
    expect(valueOf(await connector.storeCard(req))).toEqual(first);
    const other = { ...req, source: { type: 'card', card: details('5555555555554444') } } as const;
    expect(failureOf(await connector.storeCard(other))).toMatchObject({ gatewayCode: '94' });
  });
});

describe('single-use tokens', () => {
  it('are exchanged for a stored card once', async () => {
    const token = await singleUseToken(details(INSUFFICIENT_FUNDS));
    expect(token).toMatch(/^sut_/);
    expect(failureOf(await connector.describeStoredCard({ providerToken: token }))).toMatchObject({ category: 'not_found' });

    const req = { idempotencyKey: randomUUID(), source: { type: 'single_use_token', token } } as const;
    const stored = valueOf(await connector.storeCard(req));
    expect(stored.card).toMatchObject({ iin: '400000', last4: '9995' });
    expect(valueOf(await connector.storeCard(req))).toEqual(stored);
    expect(failureOf(await connector.storeCard({ ...req, idempotencyKey: randomUUID() }))).toMatchObject({
      category: 'invalid_request',
      gatewayCode: '12',
    });
    expect(failureOf(await connector.authorise(payment(storedSource(stored.providerToken))))).toMatchObject({
      category: 'insufficient_funds',
    });
  });

  it('expire after 15 minutes', async () => {
    const token = await singleUseToken();
    advance(15 * 60 * 1000);
    const failure = failureOf(await connector.storeCard({ idempotencyKey: randomUUID(), source: { type: 'single_use_token', token } }));
    expect(failure).toMatchObject({ category: 'invalid_request', gatewayCode: '12' });
  });
});

describe('network tokens', () => {
  it('are Luhn-valid scheme numbers of the card, and charge like the stored card', async () => {
    const approving = await store(details('5555555555554444'));
    const declining = await store(details(INSUFFICIENT_FUNDS));
    const req = { idempotencyKey: randomUUID(), providerToken: approving.providerToken };
    const token = valueOf(await connector.createNetworkToken(req));
    expect(token).toEqual({
      networkTokenId: expect.stringMatching(/^ntok_/),
      schemeTokenId: expect.stringMatching(/^5\d{15}$/),
      status: 'ACTIVE',
    });
    expect(passesLuhn(token.schemeTokenId)).toBe(true);
    expect(valueOf(await connector.createNetworkToken(req))).toEqual(token);
    expect(failureOf(await connector.createNetworkToken({ ...req, providerToken: declining.providerToken }))).toMatchObject({
      gatewayCode: '94',
    });

    const charged = valueOf(await connector.authorise(payment({ type: 'network_token', networkTokenId: token.networkTokenId })));
    expect(charged.card).toEqual(approving.card);
    const declined = valueOf(await connector.createNetworkToken({ idempotencyKey: randomUUID(), providerToken: declining.providerToken }));
    expect(failureOf(await connector.authorise(payment({ type: 'network_token', networkTokenId: declined.networkTokenId })))).toMatchObject(
      {
        category: 'insufficient_funds',
      },
    );
  });

  it('need a stored card', async () => {
    const failure = failureOf(await connector.createNetworkToken({ idempotencyKey: randomUUID(), providerToken: 'tok_nope' }));
    expect(failure).toMatchObject({ category: 'not_found' });
  });
});
