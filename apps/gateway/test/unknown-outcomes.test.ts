import { startSimulator, type Simulator } from '@gateway/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import {
  card,
  CHEAP_DOMESTIC,
  CHEAP_INTERNATIONAL,
  createAccount,
  startTestGateway,
  VISA,
  type TestAccount,
  type TestGateway,
} from './harness';

/**
 * Answers lost between the gateway and the acquirer (the acquirer acted, the gateway never heard),
 * and a gateway that died mid-charge: in every case money moves once, and the gateway finds out.
 */
let simulator: Simulator;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let t: TestGateway;
let a: TestAccount;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  simulator = await startSimulator();
  proxy = await startFaultProxy(simulator.url);
  t = await startTestGateway({ simulatorUrl: proxy.url, clock });
  a = await createAccount(t);
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  await simulator.close();
});

/** Lets the confirming jobs (due 2 minutes later) and the maintenance sweep run. */
async function runBackgroundWork() {
  offsetMs += 3 * 60_000;
  for (let round = 0; round < 10 && (await t.gateway.worker.runDue()) > 0; round += 1);
}

const live = (keyPrefix: string) =>
  simulator.ledger
    .authorisations()
    .filter((x) => x.idempotencyKey.startsWith(keyPrefix) && (x.status === 'authorised' || x.status === 'captured'));

describe('a lost authorisation answer', () => {
  it('is reversed before the next provider is tried: the payer is charged once', async () => {
    const b = await createAccount(t, [CHEAP_INTERNATIONAL, CHEAP_DOMESTIC]);
    proxy.loseAnswers('POST', /^\/v1\/authorisations$/);
    const { status, body } = await b.api.post('/charge/card/least_cost', { amount: 10, paymentInformation: card(VISA) });
    expect(status).toBe(201);
    expect(body).toMatchObject({ status: 'SUCCESS', providerId: b.providerIds[1] });
    expect(body.failedAttempts).toMatchObject([{ providerId: b.providerIds[0], gatewayCode: 'NETWORK', isRetryable: true }]);
    const chargeId = String(body.chargeId);
    expect(simulator.ledger.authorisations({ idempotencyKey: `${chargeId}:1` }).map((x) => x.status)).toEqual(['reversed']);
    expect(live(chargeId).map((x) => x.idempotencyKey)).toEqual([`${chargeId}:2`]);
  });
});

describe('a lost capture, void or refund answer', () => {
  async function charge(capture: boolean): Promise<string> {
    const { body } = await a.api.post('/charge/card', { amount: 10, providerId: a.providerIds[0], capture, paymentInformation: card() });
    return String(body.chargeId);
  }

  it('keeps the refund reserved, refuses to refund it again, and confirms it in the background', async () => {
    const id = await charge(true);
    proxy.loseAnswers('POST', /\/refunds$/);
    const lost = await a.api.delete(`/charge/${id}?amount=6`);
    expect(lost.status).toBe(400);
    expect(lost.body).toMatchObject({ isRetryable: false, gatewayCode: 'NETWORK' });
    // The client repeats the refund anyway: only 4 of the 10 can still be refunded.
    expect((await a.api.delete(`/charge/${id}?amount=6`)).body.code).toBe(76);
    expect((await a.api.get(`/charge/${id}`)).body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });

    await runBackgroundWork();
    expect((await a.api.get(`/charge/${id}`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 6 });
    const [auth] = simulator.ledger.authorisations({ idempotencyKey: `${id}:1` });
    expect(auth?.refunded).toBe(600n);
  });

  it('holds the capture lease until the background job has confirmed the capture', async () => {
    const id = await charge(false);
    proxy.loseAnswers('POST', /\/capture$/);
    const lost = await a.api.post(`/charge/${id}/capture`, { amount: 7 });
    expect(lost.status).toBe(400);
    expect(lost.body.isRetryable).toBe(false);
    const again = await a.api.post(`/charge/${id}/capture`, {});
    expect(again.status).toBe(409);
    await runBackgroundWork();
    expect((await a.api.get(`/charge/${id}`)).body).toMatchObject({ status: 'SUCCESS', amount: 7 });
    expect(simulator.ledger.authorisations({ idempotencyKey: `${id}:1` })[0]?.captured).toBe(700n);
  });

  it('with an Idempotency-Key: a repeat answers 409 with Retry-After until the refund is confirmed, then the refunded charge, for good', async () => {
    const id = await charge(true);
    proxy.loseAnswers('POST', /\/refunds$/);
    const refund = () =>
      fetch(`${t.url}/charge/${id}?amount=4`, {
        method: 'DELETE',
        headers: { 'x-secretkey': a.secretKey, 'Idempotency-Key': `lost-${id}` },
      });
    const lost = await refund();
    expect(lost.status).toBe(400);
    expect(await lost.json()).toMatchObject({ isRetryable: false, gatewayCode: 'NETWORK' });
    const settling = await refund();
    expect(settling.status).toBe(409);
    expect(settling.headers.get('retry-after')).toBe('5');
    expect(await settling.json()).toMatchObject({ code: 30, isRetryable: true });

    await runBackgroundWork();
    const settled = await refund();
    expect(settled.status).toBe(200);
    const answer = await settled.json();
    expect(answer).toMatchObject({ chargeId: id, status: 'PARTIAL_REFUND', refundedAmount: 4 });
    await runBackgroundWork();
    expect(await (await refund()).json()).toEqual(answer);
    expect(simulator.ledger.authorisations({ idempotencyKey: `${id}:1` })[0]?.refunded).toBe(400n);
  });

  it('confirms a void whose answer was lost', async () => {
    const id = await charge(false);
    proxy.loseAnswers('POST', /\/void$/);
    expect((await a.api.delete(`/charge/${id}/void`)).status).toBe(400);
    await runBackgroundWork();
    expect((await a.api.get(`/charge/${id}`)).body.status).toBe('AUTHORISE_CANCELLED');
  });
});

describe('a charge abandoned by a gateway that died', () => {
  it('is reversed at the acquirer and failed by the maintenance sweep', async () => {
    // What a crash between the provider's answer and the charge's update leaves behind.
    const id = 'abandoned0000000000000000000000a';
    const providerId = a.providerIds[0] ?? '';
    await t.gateway.database.prisma.charge.create({
      data: {
        id,
        accountId: a.accountId,
        providerId,
        attemptCount: 1,
        status: 'PROCESSING',
        currency: 'AUD',
        amount: 1000n,
        dateAdded: clock.now(),
      },
    });
    const authorised = await fetch(`${simulator.url}/v1/authorisations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `${id}:1` },
      body: JSON.stringify({
        amount: '1000',
        currency: 'AUD',
        capture: true,
        source: { type: 'card', card: { number: VISA, expiryMonth: 12, expiryYear: 2030 } },
      }),
    });
    expect(authorised.status).toBe(200);
    expect((await a.api.get(`/charge/${id}`)).body.status).toBe('PENDING');

    await runBackgroundWork();
    const { body } = await a.api.get(`/charge/${id}`);
    expect(body.status).toBe('FAILED');
    expect(live(id)).toEqual([]);
  });
});
