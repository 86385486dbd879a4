import { randomUUID } from 'node:crypto';
import { newMasterKey, parseKeyring } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import { startSimulator, type Simulator } from '@gateway/providers';
import type { NewProvider } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { seedAccount, startChildGateway, type ChildGateway } from '../bench/child-gateway';
import type { GatewayOptions } from '../src/gateway';
import { GATEWAY_DIR, MAIN_TS } from './child-processes';
import { CHEAP_DOMESTIC, card, client, createTestDatabase, startTestGateway, VISA, type ApiResponse, type TestGateway } from './harness';
import { nabRequestsOf, startRealProviders, type ProviderCall, type RealProviders, type RealType } from './real-providers';

/**
 * A gateway killed (SIGKILL) while requests with Idempotency-Keys are in flight: new charges
 * (some the provider made but never answered), captures, refunds and a batch create. Another
 * gateway takes over; every key is sent again with the same body until it stops answering 409,
 * then again after the clock has passed every release and sweep time. Each key answers once for
 * all (a key answered before the kill still names the same charge), and the provider and the
 * gateway hold one payment (or none, reversed) per key: never a second one. NAB Transact can
 * neither reverse a payment it never answered nor take a call twice: what the kill left without
 * its answer is held for staff and answered 80 OUTCOME_UNKNOWN, never failed on a guess nor sent
 * again (docs/outcome-unknown.md).
 *
 * The gateway runs as a child process (src/main.ts through tsx); the acquirer (the simulator, or
 * the fake providers) runs in this process, so it outlives the gateway as a real one would.
 */

const NEW_CHARGES = 10;
/** New charges the provider makes but never answers: the kill finds them in flight. */
const HUNG_CHARGES = 2;
const CHANGES = 4;
const BATCH_ROWS = 12;
/** Past the job leases of the dead gateway (30 s), so that the next takes its jobs over. */
const JOB_LEASES_MS = 60_000;
/** Past every time a key or a charge waits for: abandoned charges (2 min), confirmations (2 min), the old release (5 min). */
const LATER_MS = 10 * 60_000;
/** The gatewayCode of a call held for staff (docs/outcome-unknown.md). */
const HELD = 'OUTCOME_UNKNOWN';

/** A payment the acquirer made for a charge (minor units); `live` while it holds money. */
interface Made {
  authorised: number;
  captured: number;
  refunded: number;
  live: boolean;
}

interface Acquirer {
  /**
   * What becomes of a call the kill left without its answer: reversed (a payment, then failed) or
   * sent again with its key (a capture, a refund); or held for staff, where the provider can do
   * neither (NAB Transact).
   */
  afterKill: 'resolved' | 'held';
  /** How many calls of a kind the acquirer had for a charge, where it keeps a journal by charge (NAB). */
  sent?(chargeId: string, call: ProviderCall): number;
  provider: NewProvider;
  currency: string;
  card(): Record<string, string>;
  /** A card the acquirer makes the payment for, and never answers. */
  hangingPayment(): { card: Record<string, string>; arm(): void };
  /** Makes the next `count` captures or refunds stay unanswered (or slow), once the charges they change are made. */
  holdChanges(count: number): void;
  env: Record<string, string>;
  gatewayOptions: Partial<GatewayOptions>;
  made(chargeId: string): Made[];
  violations(): readonly unknown[];
  close(): Promise<void>;
}

/** The simulator: its timeout card is authorised and never answered; captures and refunds are slow. */
async function simulated(): Promise<Acquirer> {
  const simulator: Simulator = await startSimulator();
  const TIMEOUT_CARD = '4000000000000101';
  return {
    afterKill: 'resolved',
    // Slow enough that captures and refunds sent together are still in flight at the kill.
    provider: { ...CHEAP_DOMESTIC, latency: { minMs: 1_500, maxMs: 2_500 }, timeoutMs: 60_000 },
    currency: 'AUD',
    card: () => card(VISA),
    hangingPayment: () => ({ card: card(TIMEOUT_CARD), arm: () => undefined }),
    holdChanges: () => undefined,
    env: { GATEWAY_SIMULATOR_URL: simulator.url },
    gatewayOptions: { simulatorUrl: simulator.url },
    made: (chargeId) =>
      simulator.ledger
        .authorisations()
        .filter((a) => a.idempotencyKey.startsWith(`${chargeId}:`))
        .map((a) => ({
          authorised: Number(a.amount),
          captured: Number(a.captured),
          refunded: Number(a.refunded),
          live: a.status === 'authorised' || a.status === 'captured',
        })),
    violations: () => [],
    close: () => simulator.close(),
  };
}

let fakes: RealProviders;

/** A fake provider: calls it makes and never answers. */
function real(type: RealType): Acquirer {
  const fake = fakes.of(type);
  const nab = type === 'nab_transact';
  return {
    afterKill: nab ? 'held' : 'resolved',
    ...(nab && { sent: (chargeId: string, call: ProviderCall) => nabRequestsOf(fakes.nab_transact, chargeId, call).length }),
    provider: fake.newProvider({ timeoutMs: 60_000 }),
    currency: fake.currency,
    card: () => fake.card(),
    hangingPayment: () => ({ card: fake.card(), arm: () => void fake.hangNext('payment') }),
    holdChanges: (count) => {
      for (let n = 0; n < count; n += 1) {
        fake.hangNext('capture');
        fake.hangNext('refund');
      }
    },
    env: { GATEWAY_PROVIDER_ENDPOINTS: `${type}=${fakes.endpoints[type]}` },
    gatewayOptions: { providerEndpoints: fakes.endpoints },
    made: (chargeId) =>
      fake.allPayments(chargeId).map((p) => ({ ...p, live: fake.payments(chargeId).some((q) => q.attempt === p.attempt) })),
    violations: () => fake.violations(),
    close: async () => undefined,
  };
}

beforeAll(async () => {
  fakes = await startRealProviders();
});
afterAll(() => fakes?.close());

/** A request sent with a key, and what it answered (undefined: no answer, the gateway died first). */
interface Keyed {
  key: string;
  method: 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  answer?: ApiResponse;
}

const acquirers: Array<[string, () => Promise<Acquirer>]> = [
  ['the simulated acquirer', simulated],
  ['stripe', async () => real('stripe')],
  ['adyen', async () => real('adyen')],
  ['checkout', async () => real('checkout')],
  ['nab_transact', async () => real('nab_transact')],
];

// Two processes share the database: the embedded one cannot be shared.
describe.skipIf(!inject('databaseServerUrl')).each(acquirers)(
  'a gateway killed with Idempotency-Keys in flight at %s',
  (_name, acquirerOf) => {
    it('answers every key once settled, the same for good, and never moves money twice', async () => {
      const acquirer = await acquirerOf();
      const database = (await createTestDatabase())!;
      const masterKeys = `crash:${newMasterKey()}`;
      const db = await openDatabase({ url: database.url, poolSize: 2 });
      let first: ChildGateway | undefined;
      let next: TestGateway | undefined;
      onTestFinished(async () => {
        await first?.kill();
        await next?.close();
        await db.close();
        await acquirer.close();
        await database.drop();
      });
      first = await startChildGateway({
        args: ['--import', 'tsx', MAIN_TS],
        cwd: GATEWAY_DIR,
        databaseUrl: database.url,
        masterKeys,
        env: acquirer.env,
      });
      const { secretKey, providerId } = await seedAccount(database.url, masterKeys, acquirer.provider);
      const api = client(first.url, secretKey);
      const { currency } = acquirer;

      // Charges to capture and to refund, and a saved card for the batch, made before anything is held.
      const charge = async (capture: boolean) => {
        const made = await api.post('/charge/card', { amount: 20, currency, providerId, capture, paymentInformation: acquirer.card() });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        return String(made.body.chargeId);
      };
      const toCapture = await Promise.all(Array.from({ length: CHANGES }, () => charge(false)));
      const toRefund = await Promise.all(Array.from({ length: CHANGES }, () => charge(true)));
      const method = await api.post('/payment_method/card', { providerId, paymentInformation: acquirer.card() });
      expect(method.status).toBe(201);

      const hanging = acquirer.hangingPayment();
      const charges: Keyed[] = Array.from({ length: NEW_CHARGES + HUNG_CHARGES }, (_, n) => ({
        key: randomUUID(),
        method: 'POST',
        path: '/charge/card',
        body: {
          amount: 10 + n,
          currency,
          providerId,
          reference: `keyed-${n}`,
          paymentInformation: n < HUNG_CHARGES ? hanging.card : acquirer.card(),
        },
      }));
      const captures: Keyed[] = toCapture.map((id) => ({
        key: randomUUID(),
        method: 'POST',
        path: `/charge/${id}/capture`,
        body: { amount: 15 },
      }));
      const refunds: Keyed[] = toRefund.map((id) => ({
        key: randomUUID(),
        method: 'DELETE',
        path: `/charge/${id}?amount=5&comment=keyed`,
      }));
      const batchLines = Array.from({ length: BATCH_ROWS }, (_, n) => `${method.body.paymentMethodId},${n + 1},${currency},batch-${n}`);
      const batch: Keyed = {
        key: randomUUID(),
        method: 'POST',
        path: '/batch/transaction/payment_method',
        body: { count: BATCH_ROWS, description: 'keyed', batch: ['PaymentMethodId,Amount,Currency,Reference', ...batchLines].join('\n') },
      };
      const send = (gateway: string, request: Keyed) => {
        const headers = { 'Idempotency-Key': request.key };
        const to = client(gateway, secretKey);
        return request.method === 'DELETE' ? to.delete(request.path, headers) : to.post(request.path, request.body, headers);
      };
      const sendBefore = (request: Keyed) =>
        send(first!.url, request).then(
          (answer) => void (request.answer = answer),
          () => undefined,
        );

      // The first charges hang at the provider (made, never answered); the rest are answered. A
      // fake hangs whichever payment comes next: the rest are sent once the hung ones are made.
      for (let n = 0; n < HUNG_CHARGES; n += 1) hanging.arm();
      const hung = charges.slice(0, HUNG_CHARGES);
      for (const request of hung) void sendBefore(request);
      await expect
        .poll(
          async () => {
            const rows = await db.prisma.charge.findMany({
              where: { reference: { in: hung.map((r) => (r.body as { reference: string }).reference) } },
            });
            return rows.filter((row) => acquirer.made(row.id).length > 0).length;
          },
          { timeout: 30_000, interval: 10 },
        )
        .toBe(HUNG_CHARGES);
      for (const request of charges.slice(HUNG_CHARGES)) void sendBefore(request);
      acquirer.holdChanges(CHANGES / 2);
      for (const request of [...captures, ...refunds]) void sendBefore(request);
      const count = async (sql: 'processing' | 'leased' | 'refunding') => {
        const [{ n }] =
          sql === 'processing'
            ? await db.prisma.$queryRaw<
                [{ n: number }]
              >`SELECT count(*)::int AS n FROM "Charge" WHERE "status" = 'PROCESSING' AND "reference" LIKE 'keyed-%'`
            : sql === 'leased'
              ? await db.prisma.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM "Charge" WHERE "pendingOperation" = 'capture'`
              : await db.prisma.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM "Refund" WHERE "status" = 'PENDING'`;
        return n;
      };
      // In flight together: charges made and unanswered, captures and refunds under way; some keys already answered.
      await expect
        .poll(
          async () =>
            charges.some((c) => c.answer) &&
            (await count('processing')) >= HUNG_CHARGES &&
            (await count('leased')) > 0 &&
            (await count('refunding')) > 0,
          { timeout: 30_000, interval: 10 },
        )
        .toBe(true);
      // A batch create: killed once its batch is written, whether or not its answer has left.
      void sendBefore(batch);
      await expect.poll(() => db.prisma.batch.count(), { timeout: 30_000, interval: 2 }).toBe(1);
      await first.kill();
      first = undefined;
      const answeredBefore = [...charges, ...captures, ...refunds, batch].filter((request) => request.answer);
      const answers = new Map(answeredBefore.map((request) => [request.key, request.answer]));

      // Another gateway, its clock a minute on: past the dead one's 30 s job leases.
      let offset = JOB_LEASES_MS;
      next = await startTestGateway({
        databaseUrl: database.url,
        keyring: parseKeyring(masterKeys),
        clock: { now: () => new Date(Date.now() + offset) },
        ...acquirer.gatewayOptions,
      });
      const all = [...charges, ...captures, ...refunds, batch];
      /** Moves the clock on and runs what is due then: the maintenance sweeps and the jobs. */
      const advanceTo = async (ms: number) => {
        offset = ms;
        await next!.gateway.services.charges.sweepAbandoned();
        await next!.gateway.services.idempotency.sweep();
        for (let round = 0; round < 10 && (await next!.gateway.worker.runDue()) > 0; round += 1);
      };
      /** Every key sent again until it answers other than 409 (which says when to come back). */
      const settleAll = async () => {
        const settled = new Map<string, ApiResponse>();
        await expect
          .poll(
            async () => {
              await next!.gateway.worker.runDue();
              for (const request of all.filter((r) => !settled.has(r.key))) {
                const answer = await send(next!.url, request);
                if (answer.status === 409) expect(answer.body).toMatchObject({ code: 30, isRetryable: true });
                else settled.set(request.key, answer);
              }
              return settled.size;
            },
            { timeout: 90_000, interval: 250 },
          )
          .toBe(all.length);
        return settled;
      };

      // Right after the restart, a repeat never runs anything again: what is in flight answers 409.
      for (const request of all) {
        const answer = await send(next.url, request);
        const before = answers.get(request.key);
        if (before) expect(answer, 'a key answered before the kill').toEqual(before);
        else if (answer.status === 409) expect(answer.body).toMatchObject({ code: 30, isRetryable: true });
      }
      // Past every release and sweep time (the old release after 5 minutes, abandoned charges after 2,
      // confirmations after 2), then every key again: each answers once for all, the same as before the kill.
      await advanceTo(LATER_MS);
      const settled = await settleAll();
      for (const [key, answer] of answers) expect(settled.get(key), 'a key answered before the kill').toEqual(answer);
      await advanceTo(2 * LATER_MS);
      expect(await settleAll()).toEqual(settled);

      /** Whether a key was answered as a call held for staff (80 OUTCOME_UNKNOWN, not to be repeated); only where the acquirer cannot know. */
      const isHeld = (answer: ApiResponse) => {
        if (answer.body.gatewayCode !== HELD) return false;
        expect(acquirer.afterKill).toBe('held');
        expect(answer).toMatchObject({ status: 400, body: { code: 80, isRetryable: false } });
        return true;
      };
      /** The call of a charge held for staff: still open, by the key the provider knows it by. */
      const heldCall = async (chargeId: string, operation: string) =>
        expect(await db.prisma.unknownOutcome.findMany({ where: { chargeId, operation, resolvedAt: null } })).toHaveLength(1);
      /** The calls of a kind a charge's provider had: one at most, where the acquirer tells. */
      const sentOnce = (chargeId: string, call: ProviderCall) => expect(acquirer.sent?.(chargeId, call) ?? 1).toBeLessThanOrEqual(1);

      // New charges: one per key at the gateway and at the provider, none held where it failed; a held
      // one waits for staff (PROCESSING) and holds the payment the provider made.
      for (const request of charges) {
        const answer = settled.get(request.key)!;
        const rows = await db.prisma.charge.findMany({ where: { reference: (request.body as { reference: string }).reference } });
        expect(rows, request.key).toHaveLength(1);
        const row = rows[0]!;
        const made = acquirer.made(row.id);
        expect(made.length).toBeLessThanOrEqual(1);
        sentOnce(row.id, 'payment');
        if (answer.status === 201) {
          expect(answer.body).toMatchObject({ chargeId: row.id, status: 'SUCCESS' });
          expect(made).toEqual([expect.objectContaining({ captured: Number(row.amount), live: true })]);
        } else if (isHeld(answer)) {
          expect(answer.body.details).toMatchObject({ chargeId: row.id });
          expect(row.status).toBe('PROCESSING');
          await heldCall(row.id, 'payment');
        } else {
          expect(answer.body.details).toMatchObject({ chargeId: row.id });
          expect(row.status).toBe('FAILED');
          expect(made.filter((m) => m.live)).toEqual([]);
        }
      }
      const hungAnswer = acquirer.afterKill === 'held' ? { code: 80, gatewayCode: HELD } : { code: 80 };
      expect(charges.slice(0, HUNG_CHARGES).map((r) => settled.get(r.key)!.body)).toEqual(
        Array.from({ length: HUNG_CHARGES }, () => expect.objectContaining(hungAnswer)),
      );
      for (const request of charges.slice(0, HUNG_CHARGES).filter((r) => isHeld(settled.get(r.key)!))) {
        const chargeId = String((settled.get(request.key)!.body.details as Record<string, string>).chargeId);
        expect(acquirer.made(chargeId)).toEqual([expect.objectContaining({ live: true })]);
      }
      // Captures and refunds: made once, for the amount asked; or, those in flight where the acquirer
      // cannot know, held (the capture's lease kept, the refund PENDING) and sent no more.
      const heldChanges = { captures: 0, refunds: 0 };
      for (const [n, request] of captures.entries()) {
        const answer = settled.get(request.key)!;
        const chargeId = toCapture[n]!;
        sentOnce(chargeId, 'capture');
        if (isHeld(answer)) {
          heldChanges.captures += 1;
          expect(answer.body.details).toMatchObject({ chargeId });
          expect(await db.prisma.charge.findUniqueOrThrow({ where: { id: chargeId } })).toMatchObject({
            status: 'AUTHORISE',
            pendingOperation: 'capture',
          });
          await heldCall(chargeId, 'capture');
          continue;
        }
        expect(answer).toMatchObject({ status: 200, body: { status: 'SUCCESS', amount: 15 } });
        expect(acquirer.made(chargeId)).toEqual([expect.objectContaining({ captured: Number(minor(15)), live: true })]);
      }
      for (const [n, request] of refunds.entries()) {
        const answer = settled.get(request.key)!;
        const chargeId = toRefund[n]!;
        sentOnce(chargeId, 'refund');
        expect(await db.prisma.refund.count({ where: { chargeId } })).toBe(1);
        if (isHeld(answer)) {
          heldChanges.refunds += 1;
          const { refundId } = answer.body.details as Record<string, string>;
          expect(await db.prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({ chargeId, status: 'PENDING' });
          await heldCall(chargeId, 'refund');
          continue;
        }
        expect(answer).toMatchObject({ status: 200, body: { status: 'PARTIAL_REFUND', refundedAmount: 5 } });
        expect(acquirer.made(chargeId)).toEqual([expect.objectContaining({ refunded: Number(minor(5)) })]);
      }
      // At least those the acquirer never answered are held.
      const unanswered = acquirer.afterKill === 'held' ? CHANGES / 2 : 0;
      expect(heldChanges.captures).toBeGreaterThanOrEqual(unanswered);
      expect(heldChanges.refunds).toBeGreaterThanOrEqual(unanswered);
      // The batch: one, answered with its id, each row charged once.
      const [made] = await db.prisma.batch.findMany();
      expect(await db.prisma.batch.count()).toBe(1);
      expect(settled.get(batch.key)).toMatchObject({ status: 200, body: { batchId: made!.id } });
      await expect
        .poll(async () => (await client(next!.url, secretKey).get(`/batch/${made!.id}/status`)).body.status, { timeout: 60_000 })
        .toBe('SUCCESS');
      for (const row of await db.prisma.batchRow.findMany({ where: { batchId: made!.id } })) {
        sentOnce(row.chargeId, 'payment');
        if (row.status === 'SUCCESS') expect(acquirer.made(row.chargeId)).toEqual([expect.objectContaining({ live: true })]);
        else {
          // Held for staff where the acquirer cannot know: not to be charged again.
          expect(acquirer.afterKill).toBe('held');
          expect(row).toMatchObject({ status: 'FAILED', gatewayErrorCode: HELD, isRetryable: false });
          expect(acquirer.made(row.chargeId).length).toBeLessThanOrEqual(1);
        }
      }
      expect(acquirer.violations()).toEqual([]);
    }, 240_000);
  },
);

/** Minor units of an amount in the two-decimal currencies used here. */
const minor = (amount: number) => amount * 100;
