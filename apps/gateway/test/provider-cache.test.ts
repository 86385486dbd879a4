import { setTimeout as sleep } from 'node:timers/promises';
import { newMasterKey, parseKeyring } from '@gateway/core';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { createLogger } from '../src/logger';
import { startGateway, type Gateway } from '../src/gateway';
import { card, client, createTestDatabase, VISA } from './harness';

/**
 * Every gateway process keeps each account's providers and fees in memory and hears changes by
 * LISTEN (services/providers/provider-cache.ts). Two gateways on one PostgreSQL database, each with
 * its own pool and LISTEN connection as two processes have: a change made through one, or by SQL,
 * reaches the other within a second; the one that made it sees it at once.
 */
const NOTICE_WAIT_MS = 1_000;

/** Charges `amount` AUD until the answer shows `estimatedCost` (or the wait is over); answers the last answer. */
async function chargeUntil(api: ReturnType<typeof client>, providerId: string, expected: unknown, waitMs = NOTICE_WAIT_MS) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await api.post('/charge/card', { amount: 100, currency: 'AUD', providerId, paymentInformation: card(VISA) });
    if (answer.body.estimatedCost === expected || answer.status !== 201 || Date.now() > deadline) return answer;
    await sleep(20);
  }
}

describe.skipIf(!inject('databaseServerUrl'))('providers kept in memory by two gateways on one database', () => {
  it('follow every change, made through either gateway or by SQL, and when the LISTEN connection is lost', async () => {
    const database = (await createTestDatabase())!;
    const keyring = parseKeyring(`cache:${newMasterKey()}`);
    const gateways: Gateway[] = [];
    onTestFinished(async () => {
      for (const gateway of gateways) await gateway.close();
      await database.drop();
    });
    for (let n = 0; n < 2; n += 1) {
      gateways.push(
        await startGateway({
          port: 0,
          host: '127.0.0.1',
          databaseUrl: database.url,
          seedDemo: false,
          logger: createLogger('silent'),
          keyring,
          ccvRetentionSeconds: 300,
        }),
      );
    }
    const [a, b] = gateways as [Gateway, Gateway];
    const { account, secretKey } = await a.services.accounts.create('Cache');
    const { id: providerId } = await a.services.providers.create(account, {
      type: 'dummy',
      name: 'Acquirer',
      currency: 'AUD',
      country: 'AUS',
      latency: { minMs: 0, maxMs: 0 },
      fees: [{ transactionCost: '0.10', transactionPercentage: '1' }],
    });
    const [apiA, apiB] = [client(a.url, secretKey), client(b.url, secretKey)];
    const sql = a.database.prisma;

    // Both read (and keep) the provider: 1 % of 100 + 0.10.
    expect((await chargeUntil(apiA, providerId, 1.1, 0)).body).toMatchObject({ status: 'SUCCESS', estimatedCost: 1.1 });
    expect((await chargeUntil(apiB, providerId, 1.1, 0)).body).toMatchObject({ status: 'SUCCESS', estimatedCost: 1.1 });

    // Changed through A: A sees it at once, B within the wait.
    expect((await apiA.put(`/provider/${providerId}`, { costData: [{ transactionCost: '0.50' }] })).status).toBe(200);
    expect((await chargeUntil(apiA, providerId, 0.5, 0)).body).toMatchObject({ estimatedCost: 0.5 });
    expect((await chargeUntil(apiB, providerId, 0.5)).body).toMatchObject({ estimatedCost: 0.5 });

    // Changed by SQL, not by any gateway: the trigger's notification reaches both.
    await sql.$executeRaw`UPDATE "ProviderFee" SET "fixedMinor" = 70 WHERE "providerId" = ${providerId}`;
    expect((await chargeUntil(apiA, providerId, 0.7)).body).toMatchObject({ estimatedCost: 0.7 });
    expect((await chargeUntil(apiB, providerId, 0.7)).body).toMatchObject({ estimatedCost: 0.7 });

    // Kept, not read again: a change the trigger does not announce is not seen (for as long as
    // nothing else changes a provider).
    await sql.$executeRaw`ALTER TABLE "ProviderFee" DISABLE TRIGGER "ProviderFee_change_notice"`;
    await sql.$executeRaw`UPDATE "ProviderFee" SET "fixedMinor" = 60 WHERE "providerId" = ${providerId}`;
    await sql.$executeRaw`ALTER TABLE "ProviderFee" ENABLE TRIGGER "ProviderFee_change_notice"`;
    await sleep(300);
    expect((await chargeUntil(apiA, providerId, 0.7, 0)).body).toMatchObject({ estimatedCost: 0.7 });
    expect((await chargeUntil(apiB, providerId, 0.7, 0)).body).toMatchObject({ estimatedCost: 0.7 });

    // Both LISTEN connections killed and a change made before they are back (they wait 500 ms
    // first): its notification is lost, yet once they are back both see it, and hear the next.
    const listeners = () =>
      sql.$queryRaw<Array<{ pid: number }>>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`;
    expect(await listeners()).toHaveLength(2);
    await sql.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`;
    await sql.$executeRaw`UPDATE "ProviderFee" SET "fixedMinor" = 80 WHERE "providerId" = ${providerId}`;
    await sleep(100);
    const back = Date.now() + 10_000;
    while ((await listeners()).length < 2 && Date.now() < back) await sleep(100);
    expect(await listeners()).toHaveLength(2);
    expect((await chargeUntil(apiA, providerId, 0.8, 0)).body).toMatchObject({ estimatedCost: 0.8 });
    expect((await chargeUntil(apiB, providerId, 0.8, 0)).body).toMatchObject({ estimatedCost: 0.8 });
    await sql.$executeRaw`UPDATE "ProviderFee" SET "fixedMinor" = 90 WHERE "providerId" = ${providerId}`;
    expect((await chargeUntil(apiB, providerId, 0.9)).body).toMatchObject({ estimatedCost: 0.9 });

    // Removed through B: A refuses it within the wait (39, Invalid Provider Id).
    expect((await apiB.delete(`/provider/${providerId}`)).status).toBe(200);
    const refused = await chargeUntil(apiA, providerId, 'never');
    expect(refused).toMatchObject({ status: 400, body: { code: 39 } });
  });
});
