import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CHEAP_DOMESTIC, CHEAP_INTERNATIONAL, createAccount, startTestGateway, VISA, VISA_AU, type TestGateway } from './harness';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

async function authorisationsFor(idempotencyKey: string) {
  const response = await fetch(`${t.gateway.simulatorUrl}/v1/authorisations?idempotencyKey=${encodeURIComponent(idempotencyKey)}`);
  return ((await response.json()) as { authorisations: Array<{ status: string }> }).authorisations;
}

describe('POST /charge/card/least_cost', () => {
  it('sends each card to the provider whose fees are lowest for it, and says what it will cost', async () => {
    const a = await createAccount(t);
    const [domestic, international] = a.providerIds;

    const au = await a.api.post('/charge/card/least_cost', { amount: 100, paymentInformation: card(VISA_AU) });
    expect(au.status).toBe(201);
    // Domestic card: 1 % + 0.10 = 1.10 at the first provider, against 2 % + 0.20 = 2.20.
    expect(au.body).toMatchObject({
      providerId: domestic,
      estimatedCost: 1.1,
      estimatedCostCurrency: 'AUD',
      status: 'SUCCESS',
      failedAttempts: [],
    });

    const us = await a.api.post('/charge/card/least_cost', { amount: 100, currency: 'AUD', paymentInformation: card(VISA) });
    // International card: 3 % + 0.30 = 3.30 against 2 % = 2.00.
    expect(us.body).toMatchObject({ providerId: international, estimatedCost: 2, status: 'SUCCESS' });
  });

  it('moves on to the next cheapest provider after a retryable failure, recording it', async () => {
    const a = await createAccount(t);
    const [domestic, international] = a.providerIds;
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 10, paymentInformation: card('4000000000000119') });
    // The processor-error card fails at every acquirer: both attempts are recorded.
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 34, isRetryable: true });
    const stored = await a.api.get(`/charge/${(body.details as Record<string, string>).chargeId}`);
    expect(stored.body.status).toBe('FAILED');
    expect((stored.body.failedAttempts as Array<{ providerId: string }>).map((f) => f.providerId)).toEqual([international, domestic]);
  });

  it('succeeds at the next provider when the cheapest one is too slow, with the failure in failedAttempts', async () => {
    // The cheapest provider answers after 1 s but the gateway waits 200 ms for it.
    const a = await createAccount(t, [
      { ...CHEAP_INTERNATIONAL, name: 'Slow', latency: { minMs: 1000, maxMs: 1000 }, timeoutMs: 200 },
      { ...CHEAP_DOMESTIC, name: 'Working' },
    ]);
    const [slow, working] = a.providerIds;
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 10, paymentInformation: card(VISA) });
    expect(status).toBe(201);
    expect(body).toMatchObject({ providerId: working, status: 'SUCCESS', estimatedCost: 0.6 });
    expect(body.failedAttempts).toMatchObject([{ providerId: slow, isRetryable: true, gatewayCode: 'TIMEOUT', errorCode: '80' }]);
    // The slow acquirer had authorised before the gateway gave up: that authorisation is reversed.
    const auths = await authorisationsFor(`${String(body.chargeId)}:1`);
    expect(auths.map((x) => x.status)).toEqual(['reversed']);
  });

  it('does not retry a hard decline elsewhere', async () => {
    const a = await createAccount(t);
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 10, paymentInformation: card('4000000000009995') });
    expect(status).toBe(400);
    expect(body.code).toBe(15);
    const stored = await a.api.get(`/charge/${(body.details as Record<string, string>).chargeId}`);
    expect(stored.body.failedAttempts).toHaveLength(1);
  });

  it('fails over after a timeout and cancels what the slow provider may have done', async () => {
    const a = await createAccount(t);
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 10, paymentInformation: card('4000000000000101') });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 80, gatewayCode: 'TIMEOUT', isRetryable: true });
    const chargeId = (body.details as Record<string, string>).chargeId ?? '';
    const stored = await a.api.get(`/charge/${chargeId}`);
    expect(stored.body.failedAttempts).toHaveLength(2);
    // The timeout card does authorise at the acquirer; the gateway must have reversed both.
    for (const attempt of [1, 2]) {
      const auths = await authorisationsFor(`${chargeId}:${attempt}`);
      expect(auths.length).toBeGreaterThan(0);
      expect(auths.every((x) => x.status === 'reversed')).toBe(true);
    }
  });

  it('refuses a currency in which no provider has a known cost (AUD fees, no exchange rate)', async () => {
    const a = await createAccount(t);
    const { status, body } = await a.api.post('/charge/card/least_cost', { amount: 10, currency: 'USD', paymentInformation: card() });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 63, message: expect.stringContaining('No card provider has a known cost in USD') });
  });
});
