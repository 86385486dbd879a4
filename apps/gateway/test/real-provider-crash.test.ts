import { newMasterKey, parseKeyring } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount, startChildGateway } from '../bench/child-gateway';
import { GATEWAY_DIR, MAIN_TS } from './child-processes';
import { client, createTestDatabase, staffOf, startTestGateway, type TestGateway } from './harness';
import { heldPayment, nabRequestsOf, startRealProviders, type RealProviders, type RealType } from './real-providers';

/**
 * A gateway killed (SIGKILL) while a provider is making a card payment: the provider made it, the
 * gateway never heard. The fake providers run in this process, so they outlive the gateway as real
 * ones would. The gateway that takes over either finds the charge abandoned and reverses the
 * payment with what the dead one kept of the attempt (its parameters, the provider's ids), or, for
 * a subscription payment, bills it again with the same keys: the provider answers as it did the
 * first time. NAB Transact can do neither (no idempotency key, and no reversal without the txnID
 * only its lost answer carried): the next gateway holds the payment for staff, never failing it on
 * a guess nor sending it again (docs/outcome-unknown.md). Either way the fake holds one payment per
 * charge at most, and none the merchant does not know of or staff cannot find listed. (The batch
 * case is in batch-crash.test.ts.)
 */
let fakes: RealProviders;

beforeAll(async () => {
  fakes = await startRealProviders();
});
afterAll(() => fakes?.close());

/** A gateway process on a new database with a provider of `type`, and a gateway that takes over from it later. */
async function killable(type: RealType) {
  const real = fakes.of(type);
  const database = (await createTestDatabase())!;
  const masterKeys = `crash:${newMasterKey()}`;
  const env = { GATEWAY_PROVIDER_ENDPOINTS: `${type}=${fakes.endpoints[type]}`, GATEWAY_SEED_DEMO: 'false' };
  const gateway = await startChildGateway({
    args: ['--import', 'tsx', MAIN_TS],
    cwd: GATEWAY_DIR,
    databaseUrl: database.url,
    masterKeys,
    env,
  });
  const db = await openDatabase({ url: database.url, poolSize: 2 });
  const others: TestGateway[] = [];
  onTestFinished(async () => {
    await gateway.kill();
    for (const other of others) await other.close();
    await db.close();
    await database.drop();
  });
  // The gateway waits long for the provider: the kill comes first.
  const { accountId, secretKey, providerId } = await seedAccount(database.url, masterKeys, real.newProvider({ timeoutMs: 60_000 }));
  return {
    real,
    db,
    accountId,
    secretKey,
    providerId,
    api: client(gateway.url, secretKey),
    /** Kills the gateway once the provider has made the payment it is waiting to hear of. */
    async killAtProvider(hanging: () => boolean) {
      await expect.poll(hanging, { timeout: 60_000, interval: 20 }).toBe(true);
      await gateway.kill();
    },
    /** Minutes later, by its clock: the dead gateway's job leases are over, the charge abandoned. */
    async takeOver() {
      const later = { now: () => new Date(Date.now() + 5 * 60_000) };
      const next = await startTestGateway({
        databaseUrl: database.url,
        keyring: parseKeyring(masterKeys),
        clock: later,
        providerEndpoints: fakes.endpoints,
      });
      others.push(next);
      return next;
    },
  };
}

/**
 * What the gateway that takes over does with a payment the dead one never heard of: reverses it by
 * the attempt's key, or holds it for staff where the provider can neither reverse it nor be asked
 * (NAB Transact: docs/outcome-unknown.md).
 */
const AFTER_CRASH: Record<RealType, 'reversed' | 'held'> = {
  stripe: 'reversed',
  adyen: 'reversed',
  checkout: 'reversed',
  nab_transact: 'held',
};

/** What the dashboard's staff see of a held call. */
type Listed = Array<Record<string, unknown>>;

// Two processes must share the database: the embedded one cannot be shared.
describe.skipIf(!inject('databaseServerUrl')).each(Object.keys(AFTER_CRASH) as RealType[])('a gateway killed mid-charge at %s', (type) => {
  const held = AFTER_CRASH[type] === 'held';

  it(`leaves a payment the next gateway ${held ? 'holds for staff, never failing it nor sending it again' : 'reverses: none is left at the provider'}`, async () => {
    const { real, db, accountId, secretKey, providerId, api, killAtProvider, takeOver } = await killable(type);
    const hanging = real.hangNext('payment');
    // Cents NAB's test system approves (16).
    const body = { amount: 12.16, currency: real.currency, providerId, reference: 'killed', paymentInformation: real.card() };
    const key = { 'Idempotency-Key': 'killed-mid-charge' };
    const charging = api.post('/charge/card', body, key).catch(() => undefined);
    await killAtProvider(hanging);
    await charging;

    const [charge] = await db.prisma.charge.findMany({ where: { reference: 'killed' } });
    expect(charge).toMatchObject({ status: 'PROCESSING', attemptCount: 1 });
    const chargeId = charge!.id;
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ authorised: 1216 })]);

    const next = await takeOver();
    // Reversed and failed, or held: either way the sweep is done with it.
    expect(await next.gateway.services.charges.sweepAbandoned()).toBe(1);
    const repeat = await client(next.url, secretKey).post('/charge/card', body, key);
    expect(repeat.status, JSON.stringify(repeat.body)).toBe(400);
    expect(repeat.body).toMatchObject({ code: 80, details: { chargeId } });
    expect(real.allPayments(chargeId)).toHaveLength(1);
    expect(real.violations()).toEqual([]);
    if (!held) {
      expect(await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({ status: 'FAILED', failureCode: 80 });
      expect(real.payments(chargeId)).toEqual([]);
      return;
    }
    // NAB holds the payment and nobody knows: the charge waits for staff, PENDING to the merchant.
    const row = await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId }, include: { unknownOutcomes: true } });
    expect(row.status).toBe('PROCESSING');
    expect(row.unknownOutcomes).toEqual([heldPayment(chargeId, 1216n)]);
    expect((await client(next.url, secretKey).get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'PENDING' });
    expect(repeat.body).toMatchObject({ isRetryable: false, gatewayCode: 'OUTCOME_UNKNOWN' });
    const listed = await (await staffOf(next, accountId)).query<Listed>('dashboard.unknownOutcomes', {});
    expect(listed.data).toEqual([
      expect.objectContaining({ chargeId, operation: 'payment', providerReference: `${chargeId}:1`, amount: 12.16, currency: 'AUD' }),
    ]);
    // Later sweeps and jobs leave it to staff: the one payment NAB made, sent once.
    await next.gateway.services.charges.sweepAbandoned();
    await next.gateway.worker.runDue();
    expect((await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).status).toBe('PROCESSING');
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ authorised: 1216, captured: 1216 })]);
    expect(nabRequestsOf(fakes.nab_transact, chargeId)).toHaveLength(1);
  }, 240_000);

  it(`in a subscription payment: the next gateway ${held ? 'holds it, never sending it again' : 'sends the same keys and the payment is made once'}`, async () => {
    const { real, db, providerId, api, killAtProvider, takeOver } = await killable(type);
    const method = await api.post('/payment_method/card', { providerId, paymentInformation: real.card() });
    expect(method.status, JSON.stringify(method.body)).toBe(201);
    const hanging = real.hangNext('payment');
    // Due at once: the gateway's worker bills it, and waits for the provider.
    const subscribed = await api.post('/subscription/payment_method', {
      paymentMethodId: method.body.paymentMethodId,
      amount: 8,
      currency: real.currency,
      interval: 'Month',
      frequency: 1,
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    const subscriptionId = String(subscribed.body.subscriptionId);
    await killAtProvider(hanging);
    const [charge] = await db.prisma.charge.findMany({ where: { subscriptionId } });
    expect(charge).toMatchObject({ status: 'PROCESSING' });
    const chargeId = charge!.id;

    const next = await takeOver();
    // Billed again (with the same keys), or held: a held payment keeps its billing job waiting for staff.
    const billed = async () => {
      await next.gateway.worker.runDue();
      const after = await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId }, include: { unknownOutcomes: true } });
      return held ? after.unknownOutcomes.length : after.status;
    };
    await expect.poll(billed, { timeout: 60_000, interval: 200 }).toBe(held ? 1 : 'SUCCESS');
    expect(await db.prisma.charge.count({ where: { subscriptionId } })).toBe(1);
    expect(real.allPayments(chargeId)).toEqual([expect.objectContaining({ captured: 800, recurring: true })]);
    expect(real.violations()).toEqual([]);
    if (!held) {
      expect(await db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).toMatchObject({ paymentCount: 1 });
      return;
    }
    // The billing job tried again finds the payment held: neither counted paid nor sent again.
    await billed();
    expect(await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId }, include: { unknownOutcomes: true } })).toMatchObject({
      status: 'PROCESSING',
      unknownOutcomes: [expect.objectContaining({ operation: 'payment', providerReference: `${chargeId}:1`, resolvedAt: null })],
    });
    expect(await db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).toMatchObject({ paymentCount: 0 });
    expect(nabRequestsOf(fakes.nab_transact, chargeId)).toEqual([expect.objectContaining({ kind: 'trigger' })]);
  }, 240_000);
});
