import { newMasterKey, parseKeyring } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount, startChildGateway } from '../bench/child-gateway';
import { GATEWAY_DIR, MAIN_TS } from './child-processes';
import { client, createTestDatabase, startTestGateway } from './harness';
import { startRealProviders, type RealProviders, type RealType } from './real-providers';

/**
 * A gateway killed (SIGKILL) while a stripe or adyen provider is making a card payment: the
 * provider made it, the gateway never heard. The fake providers run in this process, so they
 * outlive the gateway as real ones would. The gateway that takes over finds the charge abandoned
 * and reverses the payment with what the dead one kept of the attempt (its parameters, the
 * provider's ids): the payer ends charged nothing, and the fake holds no payment for the charge.
 */
let fakes: RealProviders;

beforeAll(async () => {
  fakes = await startRealProviders();
});
afterAll(() => fakes?.close());

// Two processes must share the database: the embedded one cannot be shared.
describe.skipIf(!inject('databaseServerUrl')).each<RealType>(['stripe', 'adyen'])('a gateway killed mid-charge at %s', (type) => {
  it('leaves a payment the next gateway reverses: none is left at the provider', async () => {
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
    onTestFinished(async () => {
      await gateway.kill();
      await db.close();
      await database.drop();
    });
    // The gateway waits long for the provider: the kill comes first.
    const { secretKey, providerId } = await seedAccount(database.url, masterKeys, real.newProvider({ timeoutMs: 60_000 }));

    real.hangNextPayment();
    const charging = client(gateway.url, secretKey)
      .post('/charge/card', { amount: 12.5, currency: 'EUR', providerId, reference: 'killed', paymentInformation: real.card() })
      .catch(() => undefined);
    await expect.poll(() => real.paymentHanging(), { timeout: 60_000, interval: 20 }).toBe(true);
    await gateway.kill();
    await charging;

    const [charge] = await db.prisma.charge.findMany({ where: { reference: 'killed' } });
    expect(charge).toMatchObject({ status: 'PROCESSING', attemptCount: 1 });
    const chargeId = charge!.id;
    expect(real.payments(chargeId)).toEqual([expect.objectContaining({ authorised: 1250 })]);

    // Minutes later, by the clock of the gateway that takes over, its maintenance sweep runs.
    const later = { now: () => new Date(Date.now() + 5 * 60_000) };
    const next = await startTestGateway({
      databaseUrl: database.url,
      keyring: parseKeyring(masterKeys),
      clock: later,
      providerEndpoints: fakes.endpoints,
    });
    onTestFinished(() => next.close());
    expect(await next.gateway.services.charges.sweepAbandoned()).toBe(1);
    expect(await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({ status: 'FAILED', failureCode: 80 });
    expect(real.payments(chargeId)).toEqual([]);
    expect(real.allPayments(chargeId)).toHaveLength(1);
    expect(real.violations()).toEqual([]);
  }, 240_000);
});
