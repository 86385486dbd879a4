import { describe, expect, it } from 'vitest';
import { card, VISA } from './harness';
import { webhookTestbed } from './webhook-receiver';

/**
 * Retention: the maintenance sweep forgets finished idempotency keys and webhook events (with their
 * deliveries and attempt logs) once older than their configured periods, in bounded batches, and
 * keeps recent ones. Time is a clock the test moves; the sweep runs as the worker's job.
 */
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const bed = webhookTestbed({ retention: { idempotencyKeysMs: 2 * HOUR, webhookEventsMs: 2 * DAY } });

describe('the maintenance sweep', () => {
  it('prunes idempotency keys and webhook events past their retention, and keeps recent ones', async () => {
    const db = bed.t.gateway.database.prisma;
    const { a } = await bed.subscribedAccount('/kept', ['Customer']);
    const customer = (key: string) =>
      a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(VISA) }, { 'Idempotency-Key': key });
    const old = await customer('old');
    expect(old.status).toBe(201);
    await bed.drain();
    const oldEvent = await db.webhookEvent.findFirstOrThrow({
      where: { resourceId: String(old.body.customerId) },
      include: { deliveries: true },
    });
    expect(oldEvent.deliveries).toMatchObject([{ status: 'DELIVERED' }]);
    // A backlog bigger than one batch: old finished keys of another client.
    await db.$executeRaw`
      INSERT INTO "IdempotencyKey" ("accountId", "key", "fingerprint", "state", "responseStatus", "responseBody", "createdAt", "answeredAt")
      SELECT ${a.accountId}, 'backlog-' || n, 'x', 'COMPLETED', 200, '{}'::jsonb, an_hour_ago, an_hour_ago
      FROM generate_series(1, 2500) AS n, (SELECT ${new Date(bed.clock.now().getTime() - HOUR).toISOString()}::timestamptz AS an_hour_ago) AS t`;
    // A key claimed as long ago, answered two hours later (its charge settled after a crash): kept for its retention from then.
    await db.idempotencyKey.create({
      data: {
        accountId: a.accountId,
        key: 'answered-late',
        fingerprint: 'x',
        state: 'COMPLETED',
        responseStatus: 200,
        responseBody: {},
        createdAt: new Date(bed.clock.now().getTime() - HOUR),
        answeredAt: new Date(bed.clock.now().getTime() + 2 * HOUR),
      },
    });

    // 3 hours on: the keys are past their 2 hours, the event is within its 2 days.
    await bed.advance(3 * HOUR);
    const recent = await customer('recent');
    expect(recent.status).toBe(201);
    await bed.advance(2 * 60_000);
    const keys = await db.idempotencyKey.findMany({ where: { accountId: a.accountId }, select: { key: true }, orderBy: { key: 'asc' } });
    expect(keys.map((k) => k.key)).toEqual(['answered-late', 'recent']);
    expect(await db.webhookEvent.count({ where: { id: oldEvent.id } })).toBe(1);
    // A replay of the forgotten key is a new request; of the recent one, the same answer.
    expect((await customer('recent')).body).toEqual(recent.body);
    expect((await customer('old')).body.customerId).not.toBe(old.body.customerId);

    // 2 days on: the first event goes with its delivery and attempt log; the recent one stays.
    await bed.advance(2 * DAY - 2 * HOUR);
    expect(await db.webhookEvent.count({ where: { id: oldEvent.id } })).toBe(0);
    expect(await db.webhookDelivery.count({ where: { eventId: oldEvent.id } })).toBe(0);
    expect(await db.webhookAttempt.count({ where: { deliveryId: oldEvent.deliveries[0]!.id } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { resourceId: String(recent.body.customerId) } })).toBe(1);
    expect((await a.api.get(`/webhook/event/${oldEvent.id}`)).status).toBe(404);
  });

  it('deletes rate-limit rows expired for an hour (system time, as the store writes them), and keeps the others', async () => {
    const db = bed.t.gateway.database.prisma;
    const ago = (ms: number) => new Date(Date.now() - ms);
    await db.rateLimit.createMany({
      data: [
        { key: 'retention-test:expired-long-ago', points: 3, expire: ago(2 * HOUR) },
        { key: 'retention-test:expired-just-now', points: 3, expire: ago(60_000) },
        { key: 'retention-test:current', points: 3, expire: new Date(Date.now() + HOUR) },
      ],
    });
    await bed.advance(2 * 60_000);
    const kept = await db.rateLimit.findMany({ where: { key: { startsWith: 'retention-test:' } }, orderBy: { key: 'asc' } });
    expect(kept.map((row) => row.key)).toEqual(['retention-test:current', 'retention-test:expired-just-now']);
  });

  it("fails a dead endpoint's deliveries after 3 days, whatever their attempts, so their events are pruned", async () => {
    const db = bed.t.gateway.database.prisma;
    const { a, subscriptionId } = await bed.subscribedAccount('/dead', ['Customer']);
    const now = bed.clock.now();
    // A paused endpoint's backlog: pending deliveries never attempted, their jobs pushed past each pause.
    await db.$executeRaw`
      INSERT INTO "WebhookEvent" ("id", "accountId", "type", "eventType", "resourceId", "data", "createdAt")
      SELECT 'dead-' || n, ${a.accountId}, 'Customer', 'customer.created', 'cus-' || n, '{}'::jsonb, ${now.toISOString()}::timestamptz
      FROM generate_series(1, 600) AS n`;
    await db.$executeRaw`
      INSERT INTO "WebhookDelivery" ("id", "eventId", "subscriptionId", "url", "nextAttemptAt", "createdAt")
      SELECT e."id", e."id", ${subscriptionId}, 'https://dead.example/hook', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      FROM "WebhookEvent" e WHERE e."accountId" = ${a.accountId}`;
    const later = new Date(now.getTime() + 10 * DAY).toISOString();
    await db.$executeRaw`
      INSERT INTO "Job" ("id", "queue", "payload", "runAt", "groupKey", "targetKey", "createdAt")
      SELECT 'job-' || d."id", 'webhook.deliver', jsonb_build_object('deliveryId', d."id"), ${later}::timestamptz, ${a.accountId},
             'webhook-subscription:' || d."subscriptionId", ${now.toISOString()}::timestamptz
      FROM "WebhookDelivery" d WHERE d."subscriptionId" = ${subscriptionId}`;
    const ofDeadEndpoint = { subscriptionId };

    // Within 3 days they wait (past the 2 days of event retention: never pruned while pending).
    await bed.advance(3 * DAY - HOUR);
    expect(await db.webhookDelivery.count({ where: { ...ofDeadEndpoint, status: 'PENDING' } })).toBe(600);
    // Past 3 days they fail, their jobs go, and the next sweeps prune their events.
    await bed.advance(2 * HOUR);
    await bed.advance(2 * 60_000);
    expect(await db.webhookDelivery.count({ where: { ...ofDeadEndpoint, status: 'PENDING' } })).toBe(0);
    expect(await db.job.count({ where: { targetKey: `webhook-subscription:${subscriptionId}` } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { accountId: a.accountId } })).toBe(0);
  });
});
