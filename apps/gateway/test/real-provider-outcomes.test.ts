import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';
import { startRealProviders, type RealProviders, type RealType } from './real-providers';

/**
 * Answers lost between the gateway and a stripe or adyen provider (the provider acted, the
 * gateway never heard), as unknown-outcomes.test.ts does with the simulated acquirer: the client
 * is told not to repeat the call, the operation stays reserved, and the gateway confirms it in the
 * background with the same idempotency key. The provider moves the money once.
 */
let fakes: RealProviders;
let t: TestGateway;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  fakes = await startRealProviders();
  t = await startTestGateway({ clock, providerEndpoints: fakes.endpoints });
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
});

/** Lets the confirming jobs (due 2 minutes later) run. */
async function runBackgroundWork() {
  offsetMs += 3 * 60_000;
  for (let round = 0; round < 10 && (await t.gateway.worker.runDue()) > 0; round += 1);
}

// nab_transact is left out: it cannot take a call twice, so its lost completion or refund is held
// for staff (docs/outcome-unknown.md), never confirmed in the background as these expect (run with
// it, the charge stays AUTHORISE, or SUCCESS with the refund PENDING). charge-nab-transact.test.ts
// holds NAB to that. (Before the core held them, the confirming job sent them again: NAB refused
// the completion, 126, and booked or refused the refund, 134, while it had made both.)
describe.each<RealType>(['stripe', 'adyen', 'checkout'])('a lost answer from %s', (type) => {
  let a: TestAccount;
  const real = () => fakes.of(type);

  beforeAll(async () => {
    // A short wait for answers: a lost one is found out quickly.
    a = await createAccount(t, [real().newProvider({ timeoutMs: 1_000 })]);
  });
  afterAll(() => expect(real().violations()).toEqual([]));

  async function charge(capture: boolean): Promise<string> {
    const { status, body } = await a.api.post('/charge/card', {
      amount: 10,
      currency: real().currency,
      providerId: a.providerIds[0],
      capture,
      paymentInformation: real().card(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return String(body.chargeId);
  }

  it('to a capture: the capture stays leased until the background job has confirmed it', async () => {
    const id = await charge(false);
    const hanging = real().hangNext('capture');
    const lost = await a.api.post(`/charge/${id}/capture`, { amount: 7 });
    expect(hanging()).toBe(true);
    expect(lost.status).toBe(400);
    expect(lost.body).toMatchObject({ isRetryable: false });
    expect((await a.api.post(`/charge/${id}/capture`, {})).status).toBe(409);
    await runBackgroundWork();
    expect((await a.api.get(`/charge/${id}`)).body).toMatchObject({ status: 'SUCCESS', amount: 7 });
    expect(real().payments(id)).toEqual([expect.objectContaining({ authorised: 1000, captured: 700 })]);
  });

  it('to a refund: the refund stays reserved, cannot be made twice, and is confirmed in the background', async () => {
    const id = await charge(true);
    const hanging = real().hangNext('refund');
    const lost = await a.api.delete(`/charge/${id}?amount=6`);
    expect(hanging()).toBe(true);
    expect(lost.status).toBe(400);
    expect(lost.body).toMatchObject({ isRetryable: false });
    // The client repeats the refund anyway: only 4 of the 10 can still be refunded.
    expect((await a.api.delete(`/charge/${id}?amount=6`)).body.code).toBe(76);
    await runBackgroundWork();
    expect((await a.api.get(`/charge/${id}`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 6 });
    expect(real().payments(id)).toEqual([expect.objectContaining({ captured: 1000, refunded: 600 })]);
  });
});

describe('a stripe charge abandoned for more than a day', () => {
  it('is logged for staff at every sweep while Stripe refuses its reversal, and failed once Stripe takes it', async () => {
    const stripe = fakes.of('stripe');
    const a = await createAccount(t, [stripe.newProvider()]);
    const { status, body } = await a.api.post('/charge/card', {
      amount: 10,
      currency: 'EUR',
      providerId: a.providerIds[0],
      capture: false,
      paymentInformation: stripe.card(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    const chargeId = String(body.chargeId);
    // The process that made it died before answering, a day ago (the gateway was down over a weekend).
    await t.gateway.database.prisma.charge.update({
      where: { id: chargeId },
      data: { status: 'PROCESSING', dateAdded: new Date(clock.now().getTime() - 25 * 3_600_000) },
    });
    const sweep = () => t.gateway.services.charges.sweepAbandoned();
    const unresolved = () =>
      t.logs.filter((line) => line.includes('abandoned charge still not reversed after 24 h') && line.includes(chargeId));

    fakes.stripe.failNext({ method: 'POST', path: /\/cancel$/ }, { status: 500, remember: false });
    expect(await sweep()).toBe(0);
    const row = () => t.gateway.database.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } });
    expect(await row()).toMatchObject({ status: 'PROCESSING' });
    expect(stripe.payments(chargeId)).toHaveLength(1);
    expect(unresolved()).toHaveLength(1);
    expect(unresolved()[0]).toContain('"level":50');

    expect(await sweep()).toBe(1);
    expect(await row()).toMatchObject({ status: 'FAILED' });
    expect(stripe.payments(chargeId)).toEqual([]);
    expect(unresolved()).toHaveLength(1);
    expect(stripe.violations()).toEqual([]);
  });
});
