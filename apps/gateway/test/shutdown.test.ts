import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newMasterKey } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount } from '../bench/child-gateway';
import { post, startWatchedGateway, type Outcome } from './child-processes';
import { card, CHEAP_DOMESTIC, client, createTestDatabase } from './harness';
import { startReceiver } from './webhook-receiver';

/**
 * SIGTERM in the middle of a burst of charges on keep-alive connections, to a gateway in a child
 * process of its own (src/main.ts through tsx, with its own simulated acquirer) on PostgreSQL: every
 * request gets a whole answer, a refused connection or, for a kept-alive connection the gateway
 * closed as it was reused, a reset; no answer is a 5xx; what was not answered was not charged; no
 * charge is left PROCESSING, no job left claimed; the process exits 0 within its deadline. And the
 * signals: one Ctrl-C delivered twice is one stop, a second signal later exits at once.
 */
const LANES = 20;
const BURST = 200;
const DEADLINE_SECONDS = 10;

/** A gateway in a child process on a database of its own, and an account whose acquirer answers after `latencyMs`. */
async function gatewayWithAccount(latencyMs: { minMs: number; maxMs: number }, env: Record<string, string> = {}) {
  const database = (await createTestDatabase())!;
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  const masterKeys = `stop:${newMasterKey()}`;
  const gateway = await startWatchedGateway({
    databaseUrl: database.url,
    masterKeys,
    env: { GATEWAY_DATA_DIR: dir, GATEWAY_SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS), LOG_LEVEL: 'info', ...env },
  });
  const db = await openDatabase({ url: database.url, poolSize: 1 });
  onTestFinished(async () => {
    await gateway.kill();
    await db.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const { secretKey, providerId } = await seedAccount(database.url, masterKeys, {
    ...CHEAP_DOMESTIC,
    latency: latencyMs,
    timeoutMs: 10_000,
  });
  return { gateway, db, secretKey, providerId };
}

describe.runIf(inject('databaseServerUrl'))('a gateway stopped by SIGTERM', () => {
  it('during a burst of charges answers what it received, charges nothing it did not answer, and exits 0 within its deadline', async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    // Milliseconds at the acquirer, so that the signal finds charges in flight.
    const { gateway, db, secretKey, providerId } = await gatewayWithAccount(
      { minMs: 5, maxMs: 20 },
      { GATEWAY_WEBHOOK_ALLOW_PRIVATE: 'true' },
    );
    // Deliveries the receiver answers after 1.5 s: the signal finds jobs running.
    receiver.plan('/hooks', ...Array<'slow'>(BURST).fill('slow'));
    const subscribed = await client(gateway.url, secretKey).post('/webhook/subscription', {
      url: receiver.url('/hooks'),
      authorization: 'Bearer hooks',
      types: ['Transaction'],
    });
    expect(subscribed.status).toBe(200);

    // A request begun but not finished when the signal comes (its headers are incomplete): its
    // connection is not idle, so the draining gateway waits for the rest and answers it.
    let probeAnswer = '';
    const startProbe = async () => {
      const probe = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      await once(probe, 'connect');
      probe.write('GET /health HTTP/1.1\r\nHost: gateway\r\n');
      probe.on('data', (chunk: Buffer) => (probeAnswer += chunk.toString('utf8')));
      return { probe, closed: once(probe, 'close') };
    };
    let probing: ReturnType<typeof startProbe> | undefined;

    const agent = new Agent({ keepAlive: true, maxSockets: LANES });
    const outcomes: Outcome[] = [];
    let answered = 0;
    let inFlight = 0;
    let inFlightAtSignal = 0;
    let signalledAt = 0;
    const lane = async (lane: number) => {
      for (let n = 0; ; n += 1) {
        inFlight += 1;
        const body = { amount: 10, currency: 'AUD', providerId, reference: `burst-${lane}-${n}`, paymentInformation: card() };
        const outcome = await post(agent, `${gateway.url}/charge/card`, { 'x-secretkey': secretKey }, body);
        inFlight -= 1;
        outcomes.push(outcome);
        if (outcome.kind === 'answer' && (answered += 1) === BURST) {
          probing = startProbe();
          await probing;
          signalledAt = Date.now();
          inFlightAtSignal = inFlight;
          gateway.child.kill('SIGTERM');
        }
        // Refused or reset after the signal: the gateway takes no more of this lane's requests.
        if (outcome.kind !== 'answer' && signalledAt > 0) return;
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
    agent.destroy();
    const { probe, closed } = await probing!;
    probe.write('\r\n');
    await closed;
    const { code, at: exitedAt } = await gateway.exited;

    expect(code).toBe(0);
    expect(exitedAt - signalledAt).toBeLessThan(DEADLINE_SECONDS * 1000);
    expect(outcomes.length).toBeGreaterThan(BURST);
    expect(inFlightAtSignal).toBeGreaterThan(0);

    const answers = outcomes.flatMap((o) => (o.kind === 'answer' ? [o] : []));
    const errors = () => JSON.stringify(gateway.logLines().filter((line) => Number(line.level) >= 50));
    expect(
      answers.filter((a) => a.status >= 500),
      errors(),
    ).toEqual([]);
    // Nearly all approved: a loaded machine may lose an acquirer connection now and then (a refusal, code 34).
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(answers.length * 0.9);
    // Answers sent after the drain began told the client to close their connection.
    expect(answers.filter((a) => a.at > signalledAt && a.connection === 'close').length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.at < signalledAt && a.connection === 'close')).toEqual([]);
    const lost = outcomes.filter((o) => o.kind !== 'answer');
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.filter((o) => o.kind === 'reset' && !o.reused)).toEqual([]);

    expect(probeAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(probeAnswer).toMatch(/\r\nconnection: close\r\n/i);
    expect(probeAnswer).toContain('{"status":"unavailable"}');

    // A charge for every answer (a refusal names its own) and for nothing else, none left PROCESSING.
    const charges = await db.prisma.charge.findMany({ where: { reference: { startsWith: 'burst-' } }, select: { id: true, status: true } });
    expect(charges.filter((c) => c.status === 'PROCESSING')).toEqual([]);
    const chargeIds = answers.map((a) => a.body.chargeId ?? (a.body.details as Record<string, unknown>).chargeId);
    expect(new Set(charges.map((c) => c.id))).toEqual(new Set(chargeIds));
    // Jobs running at the signal finished (or were handed back): none is left claimed.
    expect(await db.prisma.job.count({ where: { status: 'RUNNING', lockedUntil: { gt: new Date() } } })).toBe(0);
    expect(receiver.at('/hooks').length).toBeGreaterThan(0);

    const output = gateway.output.join('');
    expect(output).not.toContain('Cannot use a pool after calling end');
    expect(errors()).toBe('[]');
    expect(gateway.logLines().map((line) => line.msg)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
  }, 180_000);

  it('takes one Ctrl-C that arrives twice as one, and exits at once on a second signal later', async () => {
    // A charge the acquirer answers after 5 s: a graceful stop waits for it.
    const { gateway, db, secretKey, providerId } = await gatewayWithAccount({ minMs: 5_000, maxMs: 5_000 });
    const charging = client(gateway.url, secretKey)
      .post('/charge/card', {
        amount: 10,
        currency: 'AUD',
        providerId,
        paymentInformation: card(),
      })
      // The process exits under it: its connection ends without an answer.
      .catch(() => undefined);
    await expect.poll(() => db.prisma.charge.count({ where: { status: 'PROCESSING' } }), { timeout: 30_000 }).toBe(1);

    gateway.child.kill('SIGINT');
    await sleep(10);
    gateway.child.kill('SIGINT');
    await sleep(1_000);
    expect(gateway.child.exitCode).toBeNull();

    const secondAt = Date.now();
    gateway.child.kill('SIGTERM');
    const { code, at } = await gateway.exited;
    expect(code).toBe(1);
    expect(at - secondAt).toBeLessThan(1_500);
    expect(gateway.logLines().map((line) => line.msg)).toEqual(expect.arrayContaining(['stopping', 'second signal: exiting at once']));
    await charging;
  }, 180_000);
});
